// POST /events/conversion's service with in-memory idempotency: one event per Idempotency-Key.
import type { SiteConversionRecordedV1 } from '../../../events/site';
import { inMemoryIdempotency } from '../../../functions/shared/idempotency';
import { recordConversion } from '../../../functions/waitlist/routes/record-conversion/service';

describe('recording a conversion', () => {
  it('publishes the conversion once per Idempotency-Key, and each request without one', async () => {
    const published: SiteConversionRecordedV1[] = [];
    const deps = { once: inMemoryIdempotency(), publish: async (d: SiteConversionRecordedV1) => void published.push(d), now: () => new Date('2026-11-28T10:00:00.000Z') };
    expect(await recordConversion(deps, { type: 'waitlist' }, 'k1')).toEqual({ recorded: true });
    expect(await recordConversion(deps, { type: 'waitlist' }, 'k1')).toEqual({ recorded: true });
    await recordConversion(deps, { type: 'waitlist' }, undefined);
    expect(published).toEqual([
      { version: 1, type: 'waitlist', at: '2026-11-28T10:00:00.000Z' },
      { version: 1, type: 'waitlist', at: '2026-11-28T10:00:00.000Z' },
    ]);
  });
});
