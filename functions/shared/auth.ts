import { ForbiddenError, UnauthorizedError } from './errors';
import type { HttpEvent } from './http';

export type Group = 'admin' | 'client' | 'talent';

/**
 * The id-token claim the pre-token-generation trigger adds for a person with two-factor
 * sign-in (TOTP) turned on; admin routes need it.
 */
export const MFA_CLAIM = 'mfa';
export const MFA_CLAIM_TOTP = 'totp';

export const MFA_REQUIRED_MESSAGE =
  'Turn on two-factor sign-in (an authenticator app) for your account, then sign in again: the review console needs it.';

export interface Caller {
  sub: string;
  email?: string;
  groups: string[];
  /** True when the token carries the two-factor sign-in mark. */
  mfa: boolean;
}

/**
 * The caller as API Gateway's JWT authorizer verified it. Cognito puts groups in
 * `cognito:groups`; HTTP APIs pass array claims as "[a b]" strings, so both forms are read.
 */
function callerOf(event: HttpEvent): Caller {
  const claims = event.requestContext?.authorizer?.jwt?.claims;
  if (!claims || typeof claims.sub !== 'string') throw new UnauthorizedError();
  return {
    sub: claims.sub,
    email: typeof claims.email === 'string' ? claims.email : undefined,
    groups: parseGroups(claims['cognito:groups']),
    mfa: claims[MFA_CLAIM] === MFA_CLAIM_TOTP,
  };
}

export function parseGroups(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string' || !value.trim()) return [];
  const inner = value.trim().replace(/^\[/, '').replace(/\]$/, '');
  return inner.split(/[\s,]+/).filter(Boolean);
}

export function requireGroup(event: HttpEvent, group: Group): Caller {
  const caller = callerOf(event);
  if (!caller.groups.includes(group)) {
    throw new ForbiddenError(`This needs the ${group} role; your account does not have it.`);
  }
  // Admins see every applicant's face: their sign-in must have passed a second factor.
  if (group === 'admin' && !caller.mfa) throw new ForbiddenError(MFA_REQUIRED_MESSAGE);
  return caller;
}
