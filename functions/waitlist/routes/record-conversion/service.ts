import type { ConversionRequest, SiteConversionRecordedV1 } from '../../../../events/site';
import { withIdempotencyKey, type Once } from '../../../shared/idempotency';

export interface ConversionDeps {
  once: Once;
  /** Publishes Site.ConversionRecorded on our bus. */
  publish: (detail: SiteConversionRecordedV1) => Promise<void>;
  now: () => Date;
}

/**
 * `POST /events/conversion`: records a conversion as an event on our bus (kept by its archive);
 * a repeat with the same `Idempotency-Key` records nothing more.
 */
export function recordConversion(deps: ConversionDeps, request: ConversionRequest, idempotencyKey: string | undefined): Promise<{ recorded: true }> {
  return withIdempotencyKey(deps.once, 'conversion', idempotencyKey, request, async ({ type }) => {
    await deps.publish({ version: 1, type, at: deps.now().toISOString() });
    return { recorded: true as const };
  });
}
