import * as z from 'zod';
import { ContactRequest } from '../../../../events/contact';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { publish } from '../../../shared/events';
import { httpHandler, idempotencyKeyOf, json, parseJsonBody } from '../../../shared/http';
import { idempotency } from '../../../shared/idempotency';
import { clientIpOf, rateLimiter } from '../../../shared/rate-limit';
import { messageStore } from '../../store';
import { receiveMessage } from './service';

const config = loadConfig(
  z.object({
    MESSAGES_TABLE: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
    RATE_LIMITS_TABLE: z.string().min(1),
    EVENT_BUS_NAME: z.string().min(1),
  }),
);

/** `POST /contact`: stores a message from one of the contact pages; 202 `{ received: true }`. */
export const handler = httpHandler(async (event, context) => {
  const request = parseJsonBody(event, ContactRequest);
  const result = await receiveMessage(
    {
      store: messageStore(documentClient(), config.MESSAGES_TABLE),
      publish: (type, detail) => publish(config.EVENT_BUS_NAME, type, detail),
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
      limit: rateLimiter(documentClient(), config.RATE_LIMITS_TABLE),
    },
    request,
    { ip: clientIpOf(event) },
    idempotencyKeyOf(event),
  );
  return json(202, result);
});
