import * as z from 'zod';
import { ConversionRequest, SITE_CONVERSION_RECORDED, type SiteConversionRecordedV1 } from '../../../../events/site';
import { loadConfig } from '../../../shared/config';
import { publish } from '../../../shared/events';
import { httpHandler, idempotencyKeyOf, json, parseJsonBody } from '../../../shared/http';
import { idempotency, withIdempotencyKey } from '../../../shared/idempotency';

const config = loadConfig(z.object({ EVENT_BUS_NAME: z.string().min(1), IDEMPOTENCY_TABLE: z.string().min(1) }));

/**
 * `POST /events/conversion`: records a conversion as an event on our bus (kept by its archive);
 * a repeat with the same `Idempotency-Key` records nothing more.
 */
export const handler = httpHandler(async (event, context) => {
  const request = parseJsonBody(event, ConversionRequest);
  const result = await withIdempotencyKey(idempotency(config.IDEMPOTENCY_TABLE, context), 'conversion', idempotencyKeyOf(event), request, async ({ type }) => {
    const detail: SiteConversionRecordedV1 = { version: 1, type, at: new Date().toISOString() };
    await publish(config.EVENT_BUS_NAME, SITE_CONVERSION_RECORDED, detail);
    return { recorded: true };
  });
  return json(202, result);
});
