import * as z from 'zod';
import { FoundingSignupRequest } from '../../../../events/founding';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { publish } from '../../../shared/events';
import { httpHandler, idempotencyKeyOf, json, parseJsonBody } from '../../../shared/http';
import { EmailConfig, emailSender } from '../../../shared/email';
import { idempotency } from '../../../shared/idempotency';
import { clientIpOf, rateLimiter } from '../../../shared/rate-limit';
import { s3Bucket } from '../../../shared/s3';
import { foundingStore } from '../../store';
import { submitApplication } from './service';

const config = loadConfig(
  EmailConfig.extend({
    APPLICATIONS_TABLE: z.string().min(1),
    PHOTOS_BUCKET: z.string().min(1),
    EVENT_BUS_NAME: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
    RATE_LIMITS_TABLE: z.string().min(1),
  }),
);
const send = emailSender(config);

/** Long answers (5000 characters each) and 80 image paths fit; nothing larger is read. */
const MAX_SIGNUP_BODY_BYTES = 64 * 1024;

/** `POST /founding-talent-signup` and `POST /functions/v1/founding-talent-signup`. */
export const handler = httpHandler(async (event, context) => {
  const request = parseJsonBody(event, FoundingSignupRequest, { maxBytes: MAX_SIGNUP_BODY_BYTES });
  const result = await submitApplication(
    {
      store: foundingStore(documentClient(), config.APPLICATIONS_TABLE),
      photos: s3Bucket(config.PHOTOS_BUCKET),
      publish: (type, detail) => publish(config.EVENT_BUS_NAME, type, detail),
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
      limit: rateLimiter(documentClient(), config.RATE_LIMITS_TABLE),
      send,
      siteUrl: config.SITE_URL,
    },
    request,
    { ip: clientIpOf(event), userAgent: event.requestContext?.http?.userAgent },
    idempotencyKeyOf(event),
  );
  return json(200, result);
});
