// What the applicant's proof of person routes (docs/identity.md) share: each request carries the
// identity token, which opens its own application only, counted against the network's and the
// application's hourly limits; their dependencies, built once per function from its
// configuration. The face checks themselves run in the check-faces trigger.
import * as z from 'zod';
import { FOUNDING_IDENTITY_CHECK_REQUESTED } from '../../../events/founding';
import { documentClient } from '../../shared/clients';
import { publish } from '../../shared/events';
import { rateLimiter, type RateLimiter } from '../../shared/rate-limit';
import { s3Bucket, type Bucket } from '../../shared/s3';
import { foundingStore, type FoundingStore, type StoredApplication } from '../store';
import { IDENTITY_MESSAGES, identityNetworkRule } from './messages';
import { applicationOfToken } from './tokens';

export interface ApplicantIdentityDeps {
  store: FoundingStore;
  storage: Bucket;
  limit: RateLimiter;
  /** Asks the check-faces trigger to run (FoundingApplication.IdentityCheckRequested). */
  requestCheck: (applicationId: string) => Promise<void>;
}

/** Requests per application per hour, over all identity routes (the network limit is identityNetworkRule). */
const IDENTITY_REQUESTS_PER_APPLICATION_PER_HOUR = 120;

/** Applications past these take no consent, ID verification or photos. */
export const CLOSED = new Set(['accepted', 'rejected', 'invalid']);

/** How long a presigned upload of a replacement photo stays valid. */
export const UPLOAD_URL_SECONDS = 15 * 60;

/** The application the token opens, once the network and the application are within their limits. */
export async function openByToken(deps: Pick<ApplicantIdentityDeps, 'store' | 'limit'>, token: string, ip: string): Promise<StoredApplication> {
  await deps.limit([identityNetworkRule(ip)]);
  const app = await applicationOfToken(deps.store, token);
  await deps.limit([{ name: 'founding-identity.application', subject: app.id, limit: IDENTITY_REQUESTS_PER_APPLICATION_PER_HOUR, windowSeconds: 3600, message: IDENTITY_MESSAGES.tooMany }]);
  return app;
}

/** The settings every identity route's function has. */
export const IdentityRouteConfig = z.object({
  APPLICATIONS_TABLE: z.string().min(1),
  PHOTOS_BUCKET: z.string().min(1),
  EVENT_BUS_NAME: z.string().min(1),
  RATE_LIMITS_TABLE: z.string().min(1),
});

export function identityRouteDeps(config: z.infer<typeof IdentityRouteConfig>): ApplicantIdentityDeps {
  const doc = documentClient();
  return {
    store: foundingStore(doc, config.APPLICATIONS_TABLE),
    storage: s3Bucket(config.PHOTOS_BUCKET),
    limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
    requestCheck: (applicationId) => publish(config.EVENT_BUS_NAME, FOUNDING_IDENTITY_CHECK_REQUESTED, { version: 1, applicationId }),
  };
}
