import { randomBytes } from 'node:crypto';

/**
 * A name part unique to one run of one test file: `prefix`, the time in base 36 and four random
 * characters (lowercase letters and digits only, so it fits an email, a talent id or a prompt).
 * Files sharing a twin put it in every address, id and text they create, and find their own data
 * by it: a file never mistakes another's talent, account or email for its own.
 */
export const fileMarker = (prefix: string) => `${prefix}${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
