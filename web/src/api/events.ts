export type ConversionType = 'waitlist' | 'founding-model';

/**
 * Records a conversion (a thank-you page view). Fire-and-forget: the page never waits for it
 * and any failure is ignored, so an analytics outage cannot break the thank-you page.
 */
export function recordConversion(apiUrl: string, type: ConversionType): void {
  try {
    void fetch(`${apiUrl}/events/conversion`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type }),
      keepalive: true,
    }).catch(() => undefined);
  } catch {
    // fetch itself threw (e.g. invalid URL): ignore
  }
}
