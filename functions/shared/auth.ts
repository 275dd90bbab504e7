import type { AccountRole } from '../../events/account-values';
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

/** An administrator as a change of money records them: their Cognito `sub` and email. */
export interface AdminActor {
  sub: string;
  /** The token's email; the sub when it has none. */
  email: string;
}

/** The admin behind a verified caller (from `requireGroup(event, 'admin')`). */
export const adminActorOf = (caller: Caller): AdminActor => ({ sub: caller.sub, email: caller.email ?? caller.sub });

/** A signed-in client or talent of the site, from the authorizer's verified claims only. */
export interface AccountCaller {
  sub: string;
  email: string;
  role: AccountRole;
  /** Cognito confirmed the email (talent access counts only confirmed addresses). */
  emailVerified: boolean;
  /** The `name` claim (full name), when the account has one. */
  name?: string;
}

export const NO_ACCOUNT_ROLE_MESSAGE = 'This needs a client or talent account; your sign-in has neither role.';
const roleRequiredMessage = (role: AccountRole) =>
  role === 'client' ? 'This is for client accounts: talent accounts have no plan or credits.' : 'This is for talent accounts.';

/**
 * The caller of a `/me` route: 401 without a verified token, 403 when the token's groups
 * (`cognito:groups`) hold neither client nor talent (an admin's token, for one).
 */
export function requireAccount(event: HttpEvent): AccountCaller {
  const caller = callerOf(event);
  const claims = event.requestContext.authorizer!.jwt!.claims;
  const role = (['client', 'talent'] as const).find((r) => caller.groups.includes(r));
  if (!role) throw new ForbiddenError(NO_ACCOUNT_ROLE_MESSAGE);
  if (!caller.email) throw new UnauthorizedError();
  const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : undefined;
  return { sub: caller.sub, email: caller.email, role, emailVerified: claims.email_verified === true || claims.email_verified === 'true', ...(name ? { name } : {}) };
}

/** The caller, who must hold `role` (403 naming the role otherwise). */
export function requireRole(event: HttpEvent, role: AccountRole): AccountCaller {
  const caller = requireAccount(event);
  if (caller.role !== role && !callerOf(event).groups.includes(role)) throw new ForbiddenError(roleRequiredMessage(role));
  return { ...caller, role };
}
