import * as z from 'zod';
import { DEFAULT_WAITLIST_CAPACITY } from '../../../../events/product';
import { EarlySignupRequest } from '../../../../events/waitlist';
import { documentClient } from '../../../shared/clients';
import { loadConfig, positiveIntFromEnv } from '../../../shared/config';
import { EmailConfig, emailSender } from '../../../shared/email';
import { httpHandler, idempotencyKeyOf, json, parseJsonBody } from '../../../shared/http';
import { idempotency } from '../../../shared/idempotency';
import { clientIpOf, rateLimiter } from '../../../shared/rate-limit';
import { waitlistStore } from '../../store';
import { signUp } from './service';

const config = loadConfig(
  EmailConfig.extend({
    WAITLIST_TABLE: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
    RATE_LIMITS_TABLE: z.string().min(1),
    WAITLIST_CAPACITY: positiveIntFromEnv.default(DEFAULT_WAITLIST_CAPACITY),
  }),
);
const send = emailSender(config);

/** `POST /early-signup` (and `/functions/v1/early-signup`): asks to join; the confirmation email takes the place. */
export const handler = httpHandler(async (event, context) => {
  const request = parseJsonBody(event, EarlySignupRequest);
  const result = await signUp(
    {
      store: waitlistStore(documentClient(), config.WAITLIST_TABLE),
      capacity: config.WAITLIST_CAPACITY,
      siteUrl: config.SITE_URL,
      send,
      limit: rateLimiter(documentClient(), config.RATE_LIMITS_TABLE),
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
    },
    request,
    { ip: clientIpOf(event) },
    idempotencyKeyOf(event),
  );
  return json(200, result);
});
