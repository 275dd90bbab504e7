import { apiClient } from './client';

export type ConversionType = 'waitlist' | 'founding-model';

/**
 * Records a conversion (a thank-you page view). Fire-and-forget: the page never waits for it
 * and any failure is ignored, so an analytics outage cannot break the thank-you page.
 */
export function recordConversion(apiUrl: string, type: ConversionType): void {
  void apiClient({ apiUrl })
    .call('POST', '/events/conversion', { body: { type }, keepalive: true })
    .catch(() => undefined);
}
