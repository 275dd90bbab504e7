import {
  SIGN_UP_CONFLICT_ADDRESS_MESSAGE,
  SIGN_UP_CONFLICT_IP_MESSAGE,
  SIGN_UP_CONFLICTS_PER_ADDRESS_PER_DAY,
  SIGN_UP_CONFLICTS_PER_IP_PER_HOUR,
  type SignUpConflictRequest,
  type SignUpConflictResponse,
} from '../../../../events/sign-up';
import type { Email } from '../../../shared/email-layout';
import { ONE_DAY, ONE_HOUR } from '../../../shared/idempotency';
import { log } from '../../../shared/log';
import type { RateLimiter } from '../../../shared/rate-limit';
import { existingAccountEmail } from '../../emails';
import type { PoolUsers } from '../../pool-users';

export interface SignUpConflictDeps {
  users: Pick<PoolUsers, 'get' | 'remove'>;
  send: (to: string, email: Email) => Promise<unknown>;
  limit: RateLimiter;
  siteUrl: string;
}

/** What was done, for logs and tests; never part of the answer. */
export type SignUpConflictOutcome = 'no-account' | 'unconfirmed-removed' | 'owner-told' | 'disabled';

/**
 * `POST /sign-up-conflicts` (decision 040): the sign-up page calls it when Cognito refused a
 * sign-up because the address is taken, and answers the person the same as for a new address.
 * - An unconfirmed sign-up holds the address without anyone having proved they own it (a
 *   squatter's, or the person's own earlier try): it is removed, so the page's second try
 *   creates the account and mails the code to the address.
 * - An account in use (confirmed, or invited and waiting for its first sign-in): its owner is
 *   emailed that someone tried to sign up, with where to sign in or reset the password.
 * - A disabled account is left alone and nobody is emailed.
 * The answer is `{ received: true }` whatever happened, so it tells nothing about the address.
 * Counted per network an hour and per address a day before anything is looked up, so the limits
 * themselves reveal nothing and the owner gets at most a few emails a day.
 */
export async function resolveSignUpConflict(
  deps: SignUpConflictDeps,
  req: SignUpConflictRequest,
  caller: { ip: string },
): Promise<{ response: SignUpConflictResponse; outcome: SignUpConflictOutcome }> {
  await deps.limit([
    { name: 'sign-up-conflict.ip', subject: caller.ip, limit: SIGN_UP_CONFLICTS_PER_IP_PER_HOUR, windowSeconds: ONE_HOUR, message: SIGN_UP_CONFLICT_IP_MESSAGE },
    { name: 'sign-up-conflict.address', subject: req.email, limit: SIGN_UP_CONFLICTS_PER_ADDRESS_PER_DAY, windowSeconds: ONE_DAY, message: SIGN_UP_CONFLICT_ADDRESS_MESSAGE },
  ]);
  const outcome = await resolve(deps, req.email);
  log.info('sign-up conflict', { outcome });
  return { response: { received: true }, outcome };
}

async function resolve(deps: SignUpConflictDeps, email: string): Promise<SignUpConflictOutcome> {
  const user = await deps.users.get(email);
  if (!user) return 'no-account';
  if (user.status === 'UNCONFIRMED') {
    await deps.users.remove(user.username);
    return 'unconfirmed-removed';
  }
  if (!user.enabled) return 'disabled';
  await deps.send(email, existingAccountEmail(deps.siteUrl));
  return 'owner-told';
}
