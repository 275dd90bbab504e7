import { listStatementsAdmin } from '../../../functions/royalties/routes/list-statements-admin/service';
import { latestClosedMonth, monthsBefore } from '../../../functions/royalties/statement-selection';
import { adminStats, type StatsDeps } from '../../../functions/console/routes/get-admin-stats/service';
import { buildStatement } from '../../../functions/royalties/arithmetic';
import type { StatementRecord } from '../../../functions/royalties/store';

const statement = (talentId: string, month: string, cents: number, paid = false): StatementRecord => {
  // One standard line at 20% whose royalty is exactly `cents`.
  const { totals } = buildStatement(cents ? [{ licenseId: `l-${talentId}`, generationId: 'g', at: `${month}-02T00:00:00.000Z`, month, creditValueMicros: cents * 50_000, royaltyPlan: 'standard-tiers' }] : [], 0);
  return {
    id: `${month}_${talentId}`,
    talentId,
    talentName: talentId.toUpperCase(),
    month,
    closedAt: `${month}-28T01:00:00.000Z`,
    totals,
    fromMonth: month,
    audit: [],
    ...(paid ? { paid: { paidAt: `${month}-28T02:00:00.000Z`, reference: 'R', by: 'a@b.example' } } : {}),
  };
};

function fakeStore(records: StatementRecord[]) {
  const asked: string[] = [];
  return {
    asked,
    listStatementsOfMonth: async (month: string) => (asked.push(month), records.filter((r) => r.month === month)),
    listStatements: async (talentId: string) => records.filter((r) => r.talentId === talentId).sort((a, b) => (a.month < b.month ? 1 : -1)),
  };
}

describe('the latest closed month', () => {
  it('counts months back across years', () => {
    expect([monthsBefore('2026-03', 0), monthsBefore('2026-03', 2), monthsBefore('2026-03', 3), monthsBefore('2026-01', 13)]).toEqual(['2026-03', '2026-01', '2025-12', '2024-12']);
  });

  it('is the newest month with statements, from the current month back, two years at most', async () => {
    const store = fakeStore([statement('ada', '2025-11', 100), statement('bo', '2025-09', 50)]);
    expect(await latestClosedMonth(store, new Date('2026-01-15T00:00:00Z'))).toMatchObject({ month: '2025-11', statements: [{ talentId: 'ada' }] });
    expect(store.asked).toEqual(['2026-01', '2025-12', '2025-11']);
    const old = fakeStore([statement('ada', '2023-12', 100)]);
    expect(await latestClosedMonth(old, new Date('2026-01-15T00:00:00Z'))).toBeUndefined();
    expect(old.asked).toHaveLength(24);
  });

  it("is what the dashboard owes: the month's unpaid whole cents, paid and nothing-due statements left out", async () => {
    const store = fakeStore([statement('ada', '2025-12', 105), statement('bo', '2025-12', 40, true), statement('cy', '2025-12', 0), statement('di', '2025-12', 7), statement('ed', '2025-11', 900)]);
    const zero = async () => 0;
    const deps = {
      waitlist: { count: zero, countFailedWelcomes: zero },
      waitlistCapacity: 200,
      applications: { foundingSpotsTaken: zero, listApplicationStatuses: async () => [] },
      messages: { countFailedEmails: zero },
      generations: { countByStatus: zero },
      royalties: store,
      reports: { listCases: async () => [] },
      now: () => new Date('2026-01-01T02:00:00Z'),
    } as unknown as StatsDeps;
    expect((await adminStats(deps)).royalties).toEqual({ closedMonth: '2025-12', owedCents: 112, unpaidStatements: 2 });
  });
});

describe("the console's Statements list", () => {
  const store = fakeStore([statement('ada', '2025-12', 105), statement('bo', '2025-12', 40, true), statement('ada', '2025-11', 10), statement('cy', '2025-12', 0)]);
  const query = { order: 'DESC' as const, offset: 0, limit: 25 };
  const now = new Date('2026-01-03T00:00:00Z');

  it('lists the latest closed month unfiltered, a talent across months, and filters by payout status', async () => {
    expect((await listStatementsAdmin(store, query, now)).items.map((s) => [s.id, s.payout.status])).toEqual([
      ['2025-12_ada', 'due'],
      ['2025-12_bo', 'paid'],
      ['2025-12_cy', 'nothing-due'],
    ]);
    expect((await listStatementsAdmin(store, { ...query, talentId: 'ada' }, now)).items.map((s) => s.id)).toEqual(['2025-12_ada', '2025-11_ada']);
    expect((await listStatementsAdmin(store, { ...query, talentId: 'ada', order: 'ASC' }, now)).items.map((s) => s.id)).toEqual(['2025-11_ada', '2025-12_ada']);
    expect(await listStatementsAdmin(store, { ...query, month: '2025-12', payout: 'paid' }, now)).toMatchObject({ total: 1, items: [{ id: '2025-12_bo' }] });
    expect(await listStatementsAdmin(store, { ...query, month: '2025-12', limit: 1, offset: 1 }, now)).toMatchObject({ total: 3, items: [{ id: '2025-12_bo' }] });
  });
});
