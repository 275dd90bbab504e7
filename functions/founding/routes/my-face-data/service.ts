// The talent portal's face data (docs/identity.md, "Withdrawal"): `GET /me/face-data` and
// `POST /me/face-data/withdraw`. The application is the one the account came from, found as
// every `/me` route finds it: the address lock of the account's confirmed email (never an id the
// caller sends), so a talent reaches only their own.
import type { FaceDataStatus } from '../../../../events/identity';
import type { AccountCaller } from '../../../shared/auth';
import { NotFoundError } from '../../../shared/errors';
import type { RateLimiter } from '../../../shared/rate-limit';
import { faceDataAccountRule, IDENTITY_MESSAGES, identityNetworkRule } from '../../identity/messages';
import { faceDataStatusOf } from '../../identity/status';
import { withdrawFaceConsent, type WithdrawDeps } from '../../identity/withdraw';
import { AWAITING_CONFIRMATION } from '../../../../events/founding-values';
import { ApplicationNotFoundError, type FoundingStore, type StoredApplication } from '../../store';

export interface MyFaceDataDeps extends WithdrawDeps {
  store: WithdrawDeps['store'] & Pick<FoundingStore, 'getEmailLock'>;
  limit: RateLimiter;
}

type Caller = Pick<AccountCaller, 'sub' | 'email' | 'emailVerified'>;

/** The caller's own application (talentStanding's rule): 404 without a confirmed email or an application under it. */
async function ownApplication(deps: MyFaceDataDeps, caller: Caller, ip: string): Promise<StoredApplication> {
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

/** `GET /me/face-data`: whether face data consent was given, and when; withdrawn, and when. */
export async function myFaceData(deps: MyFaceDataDeps, caller: Caller, ip: string): Promise<FaceDataStatus> {
  return faceDataStatusOf(await ownApplication(deps, caller, ip));
}

/** `POST /me/face-data/withdraw`: withdraws it (idempotent; 409 when none was given). */
export async function withdrawMyFaceData(deps: MyFaceDataDeps, caller: Caller, ip: string): Promise<FaceDataStatus> {
  const app = await ownApplication(deps, caller, ip);
  return faceDataStatusOf(await withdrawFaceConsent(deps, app, 'talent portal'));
}
