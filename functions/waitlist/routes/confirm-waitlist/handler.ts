import * as z from 'zod';
import { DEFAULT_WAITLIST_CAPACITY } from '../../../../events/product';
import { ConfirmWaitlistRequest } from '../../../../events/waitlist';
import { documentClient } from '../../../shared/clients';
import { loadConfig, positiveIntFromEnv } from '../../../shared/config';
import { publish } from '../../../shared/events';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { idempotency } from '../../../shared/idempotency';
import { clientIpOf, rateLimiter } from '../../../shared/rate-limit';
import { waitlistStore } from '../../store';
import { confirm } from './service';

const config = loadConfig(
  z.object({
    WAITLIST_TABLE: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
    RATE_LIMITS_TABLE: z.string().min(1),
    EVENT_BUS_NAME: z.string().min(1),
    WAITLIST_CAPACITY: positiveIntFromEnv.default(DEFAULT_WAITLIST_CAPACITY),
  }),
);

/** `POST /confirm-waitlist`: follows the link of a confirmation email; 200 with the place. */
export const handler = httpHandler(async (event, context) => {
  const request = parseJsonBody(event, ConfirmWaitlistRequest);
  const result = await confirm(
    {
      store: waitlistStore(documentClient(), config.WAITLIST_TABLE),
      capacity: config.WAITLIST_CAPACITY,
      publish: (type, detail) => publish(config.EVENT_BUS_NAME, type, detail),
      limit: rateLimiter(documentClient(), config.RATE_LIMITS_TABLE),
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
    },
    request,
    { ip: clientIpOf(event) },
  );
  return json(200, result);
});
