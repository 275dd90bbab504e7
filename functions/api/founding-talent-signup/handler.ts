import * as z from 'zod';
import { FoundingSignupRequest } from '../../../events/founding';
import { documentClient } from '../../shared/clients';
import { loadConfig } from '../../shared/config';
import { publish } from '../../shared/events';
import { httpHandler, idempotencyKeyOf, json, parseJsonBody } from '../../shared/http';
import { idempotency } from '../../shared/idempotency';
import { s3Client } from '../../shared/s3';
import { foundingStore } from '../../stores/founding';
import { submitApplication } from './service';

const config = loadConfig(
  z.object({
    APPLICATIONS_TABLE: z.string().min(1),
    PHOTOS_BUCKET: z.string().min(1),
    EVENT_BUS_NAME: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
  }),
);

/** Long answers (5000 characters each) and 80 image paths fit; nothing larger is read. */
const MAX_SIGNUP_BODY_BYTES = 64 * 1024;

/** `POST /founding-talent-signup` and `POST /functions/v1/founding-talent-signup`. */
export const handler = httpHandler(async (event, context) => {
  const request = parseJsonBody(event, FoundingSignupRequest, { maxBytes: MAX_SIGNUP_BODY_BYTES });
  const result = await submitApplication(
    {
      store: foundingStore(documentClient(), config.APPLICATIONS_TABLE),
      s3: s3Client(),
      bucketName: config.PHOTOS_BUCKET,
      publish: (type, detail) => publish(config.EVENT_BUS_NAME, type, detail),
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
    },
    request,
    { ip: event.requestContext?.http?.sourceIp, userAgent: event.requestContext?.http?.userAgent },
    idempotencyKeyOf(event),
  );
  return json(200, result);
});
