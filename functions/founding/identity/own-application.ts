// What the talent portal's face data routes (docs/identity.md, "Withdrawal": `GET /me/face-data`,
// `POST /me/face-data/withdraw`) share: the application is the one the account came from, found as
// every `/me` route finds it: the address lock of the account's confirmed email (never an id the
// caller sends), so a talent reaches only their own.
import type { AccountCaller } from '../../shared/auth';
import { NotFoundError } from '../../shared/errors';
import type { RateLimiter } from '../../shared/rate-limit';
import { faceDataAccountRule, IDENTITY_MESSAGES, identityNetworkRule } from './messages';
import type { WithdrawDeps } from './withdraw';
import { AWAITING_CONFIRMATION } from '../../../events/founding-values';
import { ApplicationNotFoundError, type FoundingStore, type StoredApplication } from '../store';

export interface MyFaceDataDeps extends WithdrawDeps {
  store: WithdrawDeps['store'] & Pick<FoundingStore, 'getEmailLock'>;
  limit: RateLimiter;
}

export type Caller = Pick<AccountCaller, 'sub' | 'email' | 'emailVerified'>;

/** The caller's own application (talentStanding's rule): 404 without a confirmed email or an application under it. */
export async function ownApplication(deps: MyFaceDataDeps, caller: Caller, ip: string): Promise<StoredApplication> {
  await deps.limit([identityNetworkRule(ip), faceDataAccountRule(caller.sub)]);
  const lock = caller.emailVerified ? await deps.store.getEmailLock(caller.email.trim().toLowerCase()) : undefined;
  if (!lock) throw new NotFoundError(IDENTITY_MESSAGES.noApplication);
  try {
    const app = await deps.store.getApplication(lock.applicationId);
    if (app.status === AWAITING_CONFIRMATION) throw new NotFoundError(IDENTITY_MESSAGES.noApplication);
    return app;
  } catch (err) {
    if (err instanceof ApplicationNotFoundError) throw new NotFoundError(IDENTITY_MESSAGES.noApplication);
    throw err;
  }
}

