import * as z from 'zod';
import { ReportRequest } from '../../../../events/reports';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { publish } from '../../../shared/events';
import { httpHandler, idempotencyKeyOf, json, parseJsonBody } from '../../../shared/http';
import { idempotency } from '../../../shared/idempotency';
import { clientIpOf, rateLimiter } from '../../../shared/rate-limit';
import { reportStore } from '../../store';
import { submitReport } from './service';

const config = loadConfig(
  z.object({ REPORTS_TABLE: z.string().min(1), IDEMPOTENCY_TABLE: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1), EVENT_BUS_NAME: z.string().min(1) }),
);

/** The form's longest body: the explanation and ten long URLs, with room for the other fields. */
const MAX_REPORT_BYTES = 64 * 1024;

/** `POST /reports` (anyone): opens a case; 201 `{ reference, dueAt, match }`. */
export const handler = httpHandler(async (event, context) => {
  const request = parseJsonBody(event, ReportRequest, { maxBytes: MAX_REPORT_BYTES });
  const doc = documentClient();
  const result = await submitReport(
    {
      store: reportStore(doc, config.REPORTS_TABLE),
      publish: (type, detail) => publish(config.EVENT_BUS_NAME, type, detail),
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
      limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
    },
    request,
    { ip: clientIpOf(event) },
    idempotencyKeyOf(event),
  );
  return json(201, result);
});
