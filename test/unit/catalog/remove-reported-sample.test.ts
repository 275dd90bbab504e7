// The catalog's consumer of a report's "remove the talent's sample" decision (decision 058), with a fake store.
import type { ReportDecidedV1 } from '../../../events/reports';
import { removeReportedSample } from '../../../functions/catalog/triggers/remove-reported-sample/service';

const decided = (overrides: Partial<ReportDecidedV1> = {}): ReportDecidedV1 => ({
  version: 1,
  reference: 'RPT-AAAAAA',
  action: 'remove-sample',
  decidedAt: '2026-11-29T10:00:00.000Z',
  afterAppeal: false,
  licenseId: 'lic_x',
  talentId: 'maya-chen',
  sampleUrl: '/talent/maya-2.jpg',
  ...overrides,
});

function fakeStore() {
  const samples = new Map<string, string[]>([['maya-chen', ['/talent/maya-1.jpg', '/talent/maya-2.jpg']]]);
  return {
    samples,
    removeSample: async (id: string, url: string) => {
      const list = samples.get(id) ?? [];
      if (!list.includes(url)) return 'absent' as const;
      samples.set(id, list.filter((s) => s !== url));
      return 'removed' as const;
    },
  };
}

describe("a report's removal of a talent's sample", () => {
  it('removes the named sample once; a repeated delivery changes nothing', async () => {
    const store = fakeStore();
    expect(await removeReportedSample(store, decided())).toBe('removed');
    expect(await removeReportedSample(store, decided())).toBe('skipped');
    expect(store.samples.get('maya-chen')).toEqual(['/talent/maya-1.jpg']);
  });

  it('leaves the samples alone for other decisions', async () => {
    const store = fakeStore();
    expect(await removeReportedSample(store, decided({ action: 'suspend-client' }))).toBe('skipped');
    expect(await removeReportedSample(store, decided({ sampleUrl: undefined }))).toBe('skipped');
    expect(store.samples.get('maya-chen')).toHaveLength(2);
  });
});
