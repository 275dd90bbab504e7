import { costText, monthLabel, usageMonths } from '../../../web/src/generation/format';

describe('generation words', () => {
  it('says what a run costs', () => {
    expect(costText(1)).toBe('Costs 1 credit');
    expect(costText(4)).toBe('Costs 4 credits');
  });

  it('names a UTC month, and refuses what is not one', () => {
    expect(monthLabel('2026-03')).toBe('Mar 2026');
    expect(monthLabel('2026-12')).toBe('Dec 2026');
    expect(() => monthLabel('2026-13')).toThrow(RangeError);
  });

  it('charts every month from the first with images to now, the gaps as 0, at most 12 back', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect(usageMonths([{ month: '2026-11', images: 24 }, { month: '2026-07', images: 11 }, { month: '2026-09', images: 4 }], now)).toEqual([
      { month: '2026-07', images: 11 },
      { month: '2026-08', images: 0 },
      { month: '2026-09', images: 4 },
      { month: '2026-10', images: 0 },
      { month: '2026-11', images: 24 },
    ]);
    // Across a year end; older months fall out of the window.
    const chart = usageMonths([{ month: '2025-01', images: 3 }, { month: '2025-12', images: 1 }, { month: '2026-02', images: 2 }], new Date('2026-02-01T00:00:00Z'));
    expect(chart.map((m) => m.month)).toEqual(['2025-12', '2026-01', '2026-02']);
    expect(usageMonths([], now)).toEqual([]);
    expect(usageMonths([{ month: '2026-10', images: 0 }], now)).toEqual([]);
  });
});
