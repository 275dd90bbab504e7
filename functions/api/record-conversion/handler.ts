import * as z from 'zod';
import { ConversionRequest, SITE_CONVERSION_RECORDED, type SiteConversionRecordedV1 } from '../../../events/site';
import { loadConfig } from '../../shared/config';
import { publish } from '../../shared/events';
import { httpHandler, json, parseJsonBody } from '../../shared/http';

const config = loadConfig(z.object({ EVENT_BUS_NAME: z.string().min(1) }));

/** `POST /events/conversion`: records a conversion as an event on our bus (kept by its archive). */
export const handler = httpHandler(async (event) => {
  const { type } = parseJsonBody(event, ConversionRequest);
  const detail: SiteConversionRecordedV1 = { version: 1, type, at: new Date().toISOString() };
  await publish(config.EVENT_BUS_NAME, SITE_CONVERSION_RECORDED, detail);
  return json(202, { recorded: true });
});
