// What the waitlist's signup and its confirmation link share: the caller as the API saw it, and
// the hash a confirmation token is stored and looked up by.
import { createHash } from 'node:crypto';

/** The caller as the API saw it. */
export interface Caller {
  ip: string;
}

/** Tokens are stored and looked up only by this hash. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('base64url');
