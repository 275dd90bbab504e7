import * as z from 'zod';
import { DEFAULT_WAITLIST_CAPACITY } from '../../../events/product';
import { EarlySignupRequest } from '../../../events/waitlist';
import { documentClient } from '../../shared/clients';
import { loadConfig, positiveIntFromEnv } from '../../shared/config';
import { publish } from '../../shared/events';
import { httpHandler, idempotencyKeyOf, json, parseJsonBody } from '../../shared/http';
import { idempotency } from '../../shared/idempotency';
import { waitlistStore } from '../../stores/waitlist';
import { signUp } from './service';

const config = loadConfig(
  z.object({
    WAITLIST_TABLE: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
    EVENT_BUS_NAME: z.string().min(1),
    WAITLIST_CAPACITY: positiveIntFromEnv.default(DEFAULT_WAITLIST_CAPACITY),
  }),
);

export const handler = httpHandler(async (event, context) => {
  const request = parseJsonBody(event, EarlySignupRequest);
  const result = await signUp(
    {
      store: waitlistStore(documentClient(), config.WAITLIST_TABLE),
      capacity: config.WAITLIST_CAPACITY,
      publish: (type, detail) => publish(config.EVENT_BUS_NAME, type, detail),
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
    },
    request,
    idempotencyKeyOf(event),
  );
  return json(200, result);
});
