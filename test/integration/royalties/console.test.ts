/**
 * The review console's Statements on the twin (docs/royalties.md "Review console"): the list
 * and its filters, a statement's lines against its stored figures, a payment outside Stripe
 * recorded on it with the audit (refused on a statement with nothing due), the month's
 * statements CSV and the dashboard's owed total. Statements are this run's
 * own talents', written as the close writes them (test/support/statements.ts).
 */
import { AdminStats } from '../../../events/admin';
import { AdminStatement, AdminStatementList } from '../../../events/royalties';
import { buildStatement, previousMonth } from '../../../functions/royalties/arithmetic';
import { MONTH_MESSAGE, NOTHING_DUE_MESSAGE, STATEMENT_NOT_FOUND_MESSAGE, statementId } from '../../../events/royalty-values';
import { royaltyStore } from '../../../functions/royalties/store';
import { parseCsv } from '../../support/csv';
import { putClosedStatement } from '../../support/statements';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';
import { fileMarker } from '../../support/marker';

jest.setTimeout(120_000);
const twin = useTwin();
const run = fileMarker('con');
// A far-past month no other test closes; this run's talent ids keep its rows apart.
const MONTH = '2018-04';
const NEXT = '2018-05';
const due = `con-due-${run}`;
const waiting = `con-waiting-${run}`;
const tiny = `con-tiny-${run}`;

const table = () => twin().physicalName('GenerationsTable');
const royalties = () => royaltyStore(documentClient(twin()), table());
let token: string;

const call = (method: string, path: string, body?: unknown) => callApi(twin(), token, method, `/admin${path}`, body);

beforeAll(async () => {
  token = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
  const doc = documentClient(twin());
  // Standard tiers: 20% of each value; 3 licenses of $0.50, $0.333333 and $0.25 -> 216666 micros: $0.21 paid, 6666 carried.
  const first = await putClosedStatement(doc, table(), { talentId: due, talentName: `Ada Due ${run}`, month: MONTH, royaltyPlan: 'standard-tiers', values: [500_000, 333_333, 250_000] });
  await putClosedStatement(doc, table(), {
    talentId: due,
    talentName: `Ada Due ${run}`,
    month: NEXT,
    royaltyPlan: 'standard-tiers',
    values: [500_000],
    carriedInMicros: first.totals.carriedOutMicros,
  });
  // Founding 35% of $1.00: $0.35.
  await putClosedStatement(doc, table(), { talentId: waiting, talentName: `Bea Waiting ${run}`, month: MONTH, royaltyPlan: 'founding-35', values: [1_000_000] });
  // 20% of $0.04 is under a cent: nothing to pay, carried forward.
  await putClosedStatement(doc, table(), { talentId: tiny, talentName: `Cy Tiny ${run}`, month: MONTH, royaltyPlan: 'standard-tiers', values: [40_000] });
});

const mine = (list: AdminStatementList) => list.items.filter((s) => s.talentId.endsWith(run));

describe('GET /admin/statements', () => {
  it('filters by month, talent and payout status, pages with Content-Range, and names a bad filter', async () => {
    const month = await call('GET', `/statements?month=${MONTH}&limit=500`);
    expect(month.status).toBe(200);
    const ofMonth = mine(AdminStatementList.parse(month.json));
    expect(Object.fromEntries(ofMonth.map((s) => [s.talentId, [s.totals.royaltyCents, s.payout.status]]))).toEqual({
      [due]: [21, 'due'],
      [waiting]: [35, 'due'],
      [tiny]: [0, 'nothing-due'],
    });
    expect(month.headers.get('content-range')).toMatch(new RegExp(`^statements 0-\\d+/${month.json.total}$`));

    const byTalent = AdminStatementList.parse((await call('GET', `/statements?talentId=${due}`)).json);
    expect(byTalent.items.map((s) => s.id)).toEqual([statementId(NEXT, due), statementId(MONTH, due)]);
    expect(byTalent.items[0]!.totals.carriedInMicros).toBe(6_666);
    const oldestFirst = AdminStatementList.parse((await call('GET', `/statements?talentId=${due}&order=ASC&limit=1`)).json);
    expect(oldestFirst).toMatchObject({ total: 2, items: [{ id: statementId(MONTH, due) }] });

    const both = AdminStatementList.parse((await call('GET', `/statements?month=${MONTH}&talentId=${waiting}`)).json);
    expect(both.items.map((s) => s.id)).toEqual([statementId(MONTH, waiting)]);
    const nothing = mine(AdminStatementList.parse((await call('GET', `/statements?month=${MONTH}&payout=nothing-due&limit=500`)).json));
    expect(nothing.map((s) => s.talentId)).toEqual([tiny]);

    for (const [query, field, message] of [
      ['month=2018-13', 'month', MONTH_MESSAGE],
      ['payout=sent', 'payout', 'payout must be one of paid, due, nothing-due'],
      ['talentId=Not%20An%20Id', 'talentId', 'talentId must be a talent id such as maya-chen'],
      ['limit=0', 'limit', 'limit must be 1 to 500'],
      ['colour=red', 'colour', 'colour is not a field this request accepts'],
    ]) {
      const bad = await call('GET', `/statements?${query}`);
      expect({ query, status: bad.status, field: bad.json?.fields?.[field!] }).toEqual({ query, status: 400, field: message });
    }
  });
});

describe('GET /admin/statements/{id} and a payment outside Stripe', () => {
  it('shows the lines that add up to the stored figures, and records who paid it outside Stripe, why and when; nothing else changes', async () => {
    const id = statementId(MONTH, due);
    const stored = (await royalties().getStatement(due, MONTH))!;
    const detail = AdminStatement.parse((await call('GET', `/statements/${id}`)).json);
    expect(detail.lines.map((l) => [l.ordinal, l.tier, l.royaltyMicros])).toEqual([
      [1, 'standard-1', 100_000],
      [2, 'standard-1', 66_666],
      [3, 'standard-1', 50_000],
    ]);
    expect(buildStatement(detail.lines, detail.totals.carriedInMicros).totals).toEqual(stored.totals);
    expect(detail).toMatchObject({ totals: stored.totals, payout: { status: 'due' }, audit: [] });

    // The old hand-typed "paid" is gone: a payment outside Stripe needs the payouts route, with a reason.
    expect((await call('PUT', `/statements/${id}/payout`, { status: 'paid', reference: 'WISE-1' })).status).toBe(404);
    expect(await call('POST', `/payouts/${id}/manual`, { reference: `WIRE-${run}` })).toMatchObject({ status: 400, json: { fields: { reason: expect.any(String) } } });
    const before = Date.now();
    expect((await call('POST', `/payouts/${id}/manual`, { reference: `  WIRE-${run}  `, reason: 'Paid by bank wire' })).status).toBe(200);
    const afterPaid = AdminStatement.parse((await call('GET', `/statements/${id}`)).json);
    expect(afterPaid.payout).toMatchObject({ status: 'paid', reference: `WIRE-${run}` });
    expect(Date.parse(afterPaid.payout.paidAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(afterPaid.audit).toEqual([{ at: expect.any(String), by: twin().admin.email, bySub: expect.any(String), action: 'marked-paid', detail: `Paid outside Stripe (WIRE-${run}): Paid by bank wire` }]);
    const storedAfter = (await royalties().getStatement(due, MONTH))!;
    expect({ ...storedAfter, paid: undefined, audit: undefined }).toEqual({ ...stored, paid: undefined, audit: undefined });
    expect(storedAfter.paid?.by).toBe(twin().admin.email);

    // A payment made on a given day keeps that day, which is neither in the future nor before the close.
    for (const [paidAt, message] of [
      ['2999-01-01T00:00:00Z', 'paidAt must not be in the future'],
      ['2018-04-15T00:00:00Z', 'paidAt must not be before the statement was closed'],
    ]) {
      const bad = await call('POST', `/payouts/${statementId(MONTH, waiting)}/manual`, { reference: 'PP-1', reason: 'Paid by cheque', paidAt });
      expect({ paidAt, status: bad.status, field: bad.json?.fields?.paidAt }).toEqual({ paidAt, status: 400, field: message });
    }
    expect((await call('POST', `/payouts/${statementId(MONTH, waiting)}/manual`, { reference: 'PP-1', reason: 'Paid by cheque', paidAt: '2018-05-03T10:00:00Z' })).status).toBe(200);
    expect(AdminStatement.parse((await call('GET', `/statements/${statementId(MONTH, waiting)}`)).json).payout).toEqual({ status: 'paid', paidAt: '2018-05-03T10:00:00.000Z', reference: 'PP-1' });

    // A statement with nothing due (under a cent, carried forward) has no payment to record.
    const tinyId = statementId(MONTH, tiny);
    const refused = await call('POST', `/payouts/${tinyId}/manual`, { reference: `PP-${run}`, reason: 'Paid by cheque' });
    expect(refused).toMatchObject({ status: 409, json: { error: NOTHING_DUE_MESSAGE } });
    expect(await royalties().getStatement(tiny, MONTH)).toMatchObject({ audit: [] });
    expect((await royalties().getStatement(tiny, MONTH))!.paid).toBeUndefined();
    expect(AdminStatement.parse((await call('GET', `/statements/${tinyId}`)).json).payout).toEqual({ status: 'nothing-due' });

    for (const missing of [statementId(MONTH, `nobody-${run}`), 'not-a-statement']) {
      expect(await call('GET', `/statements/${missing}`)).toMatchObject({ status: 404, json: { error: STATEMENT_NOT_FOUND_MESSAGE } });
    }
  });
});

describe('GET /admin/statements/csv', () => {
  it("answers the month's statements and where their payouts stand, as an attachment; the month is required", async () => {
    const res = await call('GET', `/statements/csv?month=${MONTH}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="humanly-payouts-${MONTH}.csv"`);
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual(['Talent id', 'Talent', 'Month', 'Licenses', 'Royalty USD', 'Payout status', 'Paid at', 'Reference']);
    const byTalent = Object.fromEntries(rows.filter((r) => r[0]!.endsWith(run)).map((r) => [r[0], r.slice(1)]));
    const waitingPaid = (await royalties().getStatement(waiting, MONTH))!.paid;
    const duePaid = (await royalties().getStatement(due, MONTH))!.paid;
    expect(byTalent).toEqual({
      // Both paid outside Stripe by the test above (tests of a file run in order).
      [due]: [`Ada Due ${run}`, MONTH, '3', '0.21', 'Paid', duePaid?.paidAt ?? '', `WIRE-${run}`],
      [waiting]: [`Bea Waiting ${run}`, MONTH, '1', '0.35', 'Paid', waitingPaid?.paidAt ?? '', 'PP-1'],
      [tiny]: [`Cy Tiny ${run}`, MONTH, '1', '0.00', 'Nothing to pay: carried forward', '', ''],
    });
    for (const query of ['', '?month=April']) {
      expect(await call('GET', `/statements/csv${query}`)).toMatchObject({ status: 400, json: { fields: { month: MONTH_MESSAGE } } });
    }
  });
});

describe('GET /admin/stats royalties', () => {
  it("owes the latest closed month's unpaid statements, and less once one is paid", async () => {
    // A statement of last month, the latest a close can have written (only ended months are closed).
    const month = previousMonth(new Date().toISOString());
    const talentId = `con-now-${run}`;
    await putClosedStatement(documentClient(twin()), table(), { talentId, talentName: `Di Now ${run}`, month, royaltyPlan: 'founding-35', values: [10_000_000], closedAt: new Date().toISOString() });
    // The owed total is the sum over the month's list: read both, again if another test changed the month between.
    const owedBoth = async () => {
      for (let attempt = 0; ; attempt += 1) {
        const stats = AdminStats.parse((await call('GET', '/stats')).json).royalties;
        const list = AdminStatementList.parse((await call('GET', `/statements?month=${month}&limit=500`)).json);
        const unpaid = list.items.filter((s) => s.payout.status === 'due');
        const fromList = { closedMonth: month, owedCents: unpaid.reduce((n, s) => n + s.totals.royaltyCents, 0), unpaidStatements: unpaid.length };
        if (attempt === 2 || JSON.stringify(stats) === JSON.stringify(fromList)) return { stats, fromList, mine: list.items.find((s) => s.talentId === talentId) };
      }
    };
    const before = await owedBoth();
    expect(before.stats).toEqual(before.fromList);
    expect(before.mine?.payout.status).toBe('due');
    expect(before.stats.owedCents).toBeGreaterThanOrEqual(350);
    expect((await call('POST', `/payouts/${statementId(month, talentId)}/manual`, { reference: `PP-${run}`, reason: 'Paid by bank wire' })).status).toBe(200);
    const after = await owedBoth();
    expect(after.stats).toEqual(after.fromList);
    expect(after.mine?.payout.status).toBe('paid');
  });
});
