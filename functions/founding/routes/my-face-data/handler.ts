import * as z from 'zod';
import { FOUNDING_IDENTITY_CHECK_REQUESTED } from '../../../../events/founding';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { publish } from '../../../shared/events';
import { httpHandler, json } from '../../../shared/http';
import { clientIpOf, rateLimiter } from '../../../shared/rate-limit';
import { s3Bucket } from '../../../shared/s3';
import { foundingStore } from '../../store';
import { myFaceData, withdrawMyFaceData } from './service';

const config = loadConfig(
  z.object({
    APPLICATIONS_TABLE: z.string().min(1),
    PHOTOS_BUCKET: z.string().min(1),
    EVENT_BUS_NAME: z.string().min(1),
    RATE_LIMITS_TABLE: z.string().min(1),
  }),
);

/**
 * `GET /me/face-data` and `POST /me/face-data/withdraw` (talent): the face data consent of the
 * application the account came from, and its withdrawal (docs/identity.md, "Withdrawal").
 */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  const deps = {
    store: foundingStore(doc, config.APPLICATIONS_TABLE),
    storage: s3Bucket(config.PHOTOS_BUCKET),
    limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
    requestCheck: (applicationId: string) => publish(config.EVENT_BUS_NAME, FOUNDING_IDENTITY_CHECK_REQUESTED, { version: 1, applicationId }),
  };
  const ip = clientIpOf(event);
  if ((event.rawPath ?? '').endsWith('/withdraw')) return json(200, await withdrawMyFaceData(deps, caller, ip));
  return json(200, await myFaceData(deps, caller, ip));
});
