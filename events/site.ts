import * as z from 'zod';

/** Body of `POST /events/conversion`: the thank-you page records that a signup converted. */
export const ConversionRequest = z
  .object({
    type: z.enum(['waitlist', 'founding-model'], { error: 'type must be waitlist or founding-model' }),
  })
  .strict();
export type ConversionRequest = z.infer<typeof ConversionRequest>;

/** `Site.ConversionRecorded` v1. */
export const SITE_CONVERSION_RECORDED = 'Site.ConversionRecorded';
export interface SiteConversionRecordedV1 {
  version: 1;
  type: ConversionRequest['type'];
  at: string;
}
