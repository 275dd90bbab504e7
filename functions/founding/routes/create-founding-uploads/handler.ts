import * as z from 'zod';
import { FoundingUploadRequest } from '../../../../events/founding';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, idempotencyKeyOf, json, parseJsonBody } from '../../../shared/http';
import { idempotency } from '../../../shared/idempotency';
import { clientIpOf, rateLimiter } from '../../../shared/rate-limit';
import { s3Bucket } from '../../../shared/s3';
import { foundingStore } from '../../store';
import { createUploads } from './service';

const config = loadConfig(
  z.object({
    APPLICATIONS_TABLE: z.string().min(1),
    PHOTOS_BUCKET: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
    RATE_LIMITS_TABLE: z.string().min(1),
  }),
);

/** `POST /founding-uploads`: presigned PUT URLs for an applicant's photos and zips. */
export const handler = httpHandler(async (event, context) => {
  const request = parseJsonBody(event, FoundingUploadRequest);
  const result = await createUploads(
    {
      store: foundingStore(documentClient(), config.APPLICATIONS_TABLE),
      photos: s3Bucket(config.PHOTOS_BUCKET),
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
      limit: rateLimiter(documentClient(), config.RATE_LIMITS_TABLE),
    },
    request,
    { ip: clientIpOf(event) },
    idempotencyKeyOf(event),
  );
  return json(200, result);
});
