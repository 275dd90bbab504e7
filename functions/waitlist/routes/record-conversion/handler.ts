import * as z from 'zod';
import { ConversionRequest, SITE_CONVERSION_RECORDED, type SiteConversionRecordedV1 } from '../../../../events/site';
import { loadConfig } from '../../../shared/config';
import { publish } from '../../../shared/events';
import { httpHandler, idempotencyKeyOf, json, parseJsonBody } from '../../../shared/http';
import { idempotency } from '../../../shared/idempotency';
import { recordConversion } from './service';

const config = loadConfig(z.object({ EVENT_BUS_NAME: z.string().min(1), IDEMPOTENCY_TABLE: z.string().min(1) }));

/** `POST /events/conversion` (anyone): records a conversion; 202. */
export const handler = httpHandler(async (event, context) => {
  const request = parseJsonBody(event, ConversionRequest);
  const deps = { once: idempotency(config.IDEMPOTENCY_TABLE, context), publish: (detail: SiteConversionRecordedV1) => publish(config.EVENT_BUS_NAME, SITE_CONVERSION_RECORDED, detail), now: () => new Date() };
  return json(202, await recordConversion(deps, request, idempotencyKeyOf(event)));
});
