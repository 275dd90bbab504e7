// What the talent portal's face data routes (docs/identity.md, "Withdrawal": `GET /me/face-data`,
// `POST /me/face-data/withdraw`) share: the application is the one the account came from, found as
// every `/me` route finds it: the address lock of the account's confirmed email (never an id the
// caller sends), so a talent reaches only their own.
import * as z from 'zod';
import { FOUNDING_IDENTITY_CHECK_REQUESTED } from '../../../events/founding';
import type { AccountCaller } from '../../shared/auth';
import { documentClient } from '../../shared/clients';
import { publish } from '../../shared/events';
import { NotFoundError } from '../../shared/errors';
import { rateLimiter, type RateLimiter } from '../../shared/rate-limit';
import { s3Bucket } from '../../shared/s3';
import { faceDataAccountRule, IDENTITY_MESSAGES, identityNetworkRule } from './messages';
import type { WithdrawDeps } from './withdraw';
import { AWAITING_CONFIRMATION } from '../../../events/founding-values';
import { ApplicationNotFoundError, foundingStore, type FoundingStore, type StoredApplication } from '../store';

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


/** The settings both face data routes' functions have. */
export const FaceDataRouteConfig = z.object({
  APPLICATIONS_TABLE: z.string().min(1),
  PHOTOS_BUCKET: z.string().min(1),
  EVENT_BUS_NAME: z.string().min(1),
  RATE_LIMITS_TABLE: z.string().min(1),
});

export function faceDataRouteDeps(config: z.infer<typeof FaceDataRouteConfig>): MyFaceDataDeps {
  const doc = documentClient();
  return {
    store: foundingStore(doc, config.APPLICATIONS_TABLE),
    storage: s3Bucket(config.PHOTOS_BUCKET),
    limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
    requestCheck: (applicationId: string) => publish(config.EVENT_BUS_NAME, FOUNDING_IDENTITY_CHECK_REQUESTED, { version: 1, applicationId }),
  };
}
