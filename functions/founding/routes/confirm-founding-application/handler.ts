import * as z from 'zod';
import { FoundingConfirmRequest } from '../../../../events/founding';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { publish } from '../../../shared/events';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { clientIpOf, rateLimiter } from '../../../shared/rate-limit';
import { foundingStore } from '../../store';
import { confirmApplication } from './service';

const config = loadConfig(
  z.object({
    APPLICATIONS_TABLE: z.string().min(1),
    EVENT_BUS_NAME: z.string().min(1),
    RATE_LIMITS_TABLE: z.string().min(1),
  }),
);

/** `POST /founding-confirm`: confirms an applicant's address with the token from their email. */
export const handler = httpHandler(async (event) => {
  const request = parseJsonBody(event, FoundingConfirmRequest);
  const result = await confirmApplication(
    {
      store: foundingStore(documentClient(), config.APPLICATIONS_TABLE),
      publish: (type, detail) => publish(config.EVENT_BUS_NAME, type, detail),
      limit: rateLimiter(documentClient(), config.RATE_LIMITS_TABLE),
    },
    request,
    { ip: clientIpOf(event) },
  );
  return json(200, result);
});
