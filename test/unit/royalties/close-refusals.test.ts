// What the monthly close and the console refuse (docs/royalties.md "Monthly close", "Review
// console"): a month that has not ended (UTC) is closed by nobody, before anything is read or
// claimed; a talent's statement the close could not close is counted as the StatementsNotClosed
// metric (CloudWatch's embedded metric format, which its alarm watches); and "paid" is refused on
// a statement that pays no whole cent, with nothing written.
import { FAILURE_METRICS } from '../../../events/metrics';
import { NOTHING_DUE_MESSAGE } from '../../../events/royalty-values';
import { assertMonthEnded, buildStatement, MonthNotEndedError } from '../../../functions/royalties/arithmetic';
import { markStatementPayout, type MarkPayoutDeps } from '../../../functions/royalties/routes/mark-statement-payout/service';
import { CloseInput, planClose } from '../../../functions/royalties/steps/close-plan/service';
import { closeTalentMonth, type CloseTalentMonthDeps } from '../../../functions/royalties/steps/close-talent-month/service';
import { reportNotClosed, ReportNotClosedInput } from '../../../functions/royalties/steps/report-not-closed/service';
import type { StatementRecord } from '../../../functions/royalties/store';
import { ConflictError } from '../../../functions/shared/errors';

/** Every store call fails the test: a refused close must not read, claim or write anything. */
const untouchable = new Proxy({} as CloseTalentMonthDeps['royalties'], {
  get: (_t, name) => () => {
    throw new Error(`the close called royalties.${String(name)}`);
  },
});

describe('a month that has not ended', () => {
  it('ends at the first instant of the next month, UTC', () => {
    expect(() => assertMonthEnded('2026-11', new Date('2026-11-30T23:59:59.999Z'))).toThrow(MonthNotEndedError);
    expect(() => assertMonthEnded('2026-12', new Date('2026-12-31T23:59:59.999Z'))).toThrow(MonthNotEndedError);
    expect(() => assertMonthEnded('2026-11', new Date('2026-12-01T00:00:00.000Z'))).not.toThrow();
    expect(() => assertMonthEnded('2026-12', new Date('2027-01-01T00:00:00.000Z'))).not.toThrow();
    let err: unknown;
    try {
      assertMonthEnded('2026-11', new Date('2026-11-15T12:00:00Z'));
    } catch (e) {
      err = e;
    }
    // Step Functions matches it by name (never retried); the message says when it can be closed.
    expect(err).toMatchObject({ name: 'MonthNotEnded', message: 'The month 2026-11 has not ended: it can be closed from 2026-12-01T00:00:00.000Z (UTC).' });
  });

  it('is refused by PlanClose, from an operator\'s month or a Scheduled Event timed in the future, before the catalog is read', async () => {
    const now = new Date('2026-11-27T12:00:00Z');
    const talentIds = jest.fn(async () => ['maya-chen']);
    for (const input of [{ month: '2026-11' }, { month: '2027-03' }, { time: '2026-12-01T01:00:00Z' }]) {
      await expect(planClose({ talentIds, now: () => now }, CloseInput.parse(input))).rejects.toThrow(MonthNotEndedError);
    }
    expect(talentIds).not.toHaveBeenCalled();
    await expect(planClose({ talentIds, now: () => now }, CloseInput.parse({ month: '2026-10' }))).resolves.toEqual({ month: '2026-10', talentIds: ['maya-chen'] });
  });

  it('is refused by CloseTalentMonth too, before anything is read or claimed', async () => {
    const talent = jest.fn();
    const send = jest.fn();
    const deps: CloseTalentMonthDeps = { royalties: untouchable, talent, send, siteUrl: 'https://humanly.example', promotionalCapMicros: 25_000_000, now: () => new Date('2026-11-30T23:00:00Z') };
    await expect(closeTalentMonth(deps, { talentId: 'maya-chen', month: '2026-11' })).rejects.toThrow(MonthNotEndedError);
    expect(talent).not.toHaveBeenCalled();
    expect(send).not.toHaveBeenCalled();
  });
});

describe('a statement the close could not close', () => {
  it('is counted as the StatementsNotClosed metric, with the talent, the month and the error\'s name', () => {
    const lines: string[] = [];
    const spy = jest.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      expect(reportNotClosed(ReportNotClosedInput.parse({ talentId: 'maya-chen', month: '2026-11', error: 'StatementMismatch' }))).toEqual({ talentId: 'maya-chen', outcome: 'not-closed', error: 'StatementMismatch' });
    } finally {
      spy.mockRestore();
    }
    const written = lines.map((l) => JSON.parse(l) as Record<string, unknown> & { _aws?: { CloudWatchMetrics: Array<{ Metrics: Array<{ Name: string; Unit: string }> }> } });
    const metric = written.find((l) => l._aws);
    expect(metric?._aws?.CloudWatchMetrics[0]?.Metrics).toEqual([{ Name: FAILURE_METRICS.statementNotClosed, Unit: 'Count' }]);
    expect(metric).toMatchObject({ [FAILURE_METRICS.statementNotClosed]: 1, talentId: 'maya-chen', month: '2026-11', error: 'StatementMismatch' });
    expect(FAILURE_METRICS.statementNotClosed).toBe('StatementsNotClosed');
  });

  it('names what is wrong in a bad report', () => {
    expect(() => ReportNotClosedInput.parse({ talentId: 'Maya Chen', month: '2026-11', error: 'X' })).toThrow(/talentId must be a talent id/);
  });
});

describe('"paid" on a statement with nothing due', () => {
  const closedAt = '2026-12-01T01:00:05.000Z';
  /** A closed statement of licenses at 20% of each value, and the accruals its close claimed. */
  const statement = (values: number[]) => {
    const accruals = values.map((v, i) => ({
      licenseId: `lic_${i}`,
      generationId: `g${i}`,
      at: `2026-11-0${i + 1}T00:00:00.000Z`,
      month: '2026-11',
      creditValueMicros: v,
      royaltyPlan: 'standard-tiers' as const,
      talentId: 'jon-reyes',
      accountId: 'client-1',
    }));
    const record: StatementRecord = { id: '2026-11_jon-reyes', talentId: 'jon-reyes', talentName: 'Jon Reyes', month: '2026-11', closedAt, totals: buildStatement(accruals, 0).totals, fromMonth: '2026-11', audit: [] };
    return { record, accruals };
  };
  const deps = ({ record, accruals }: ReturnType<typeof statement>) => {
    const setPaid = jest.fn(async (_t: string, _m: string, paid: StatementRecord['paid']) => ({ ...record, ...(paid ? { paid } : {}) }));
    const d: MarkPayoutDeps = {
      royalties: { getStatement: async () => record, claimedAccruals: async () => accruals, getPayoutDetails: async () => undefined, setPaid },
      talent: { get: async () => undefined },
      now: () => new Date('2026-12-05T10:00:00Z'),
    };
    return { d, setPaid };
  };

  it('is refused with 409 and the reason, and nothing is written; unpaid stays allowed', async () => {
    // 20% of $0.04 = 8,000 micro-dollars: under a cent, carried to the next statement.
    const tiny = statement([40_000]);
    expect(tiny.record.totals.royaltyCents).toBe(0);
    const { d, setPaid } = deps(tiny);
    const refusal = await markStatementPayout(d, tiny.record.id, { status: 'paid', reference: 'PP-1' }, 'admin@humanly.example').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ConflictError);
    expect(refusal).toMatchObject({ status: 409, message: NOTHING_DUE_MESSAGE });
    expect(setPaid).not.toHaveBeenCalled();
    // A statement marked paid before this rule can still be put right.
    expect((await markStatementPayout(d, tiny.record.id, { status: 'unpaid' }, 'admin@humanly.example')).payout).toEqual({ status: 'nothing-due' });
    expect(setPaid).toHaveBeenCalledWith('jon-reyes', '2026-11', undefined, expect.objectContaining({ action: 'marked-unpaid' }));
  });

  it('is recorded when the statement pays a cent or more', async () => {
    // 20% of $0.05 = 10,000 micro-dollars: one cent.
    const cent = statement([50_000]);
    expect(cent.record.totals.royaltyCents).toBe(1);
    const { d, setPaid } = deps(cent);
    expect((await markStatementPayout(d, cent.record.id, { status: 'paid', reference: 'PP-2' }, 'admin@humanly.example')).payout).toEqual({ status: 'paid', paidAt: '2026-12-05T10:00:00.000Z', reference: 'PP-2' });
    expect(setPaid).toHaveBeenCalledWith('jon-reyes', '2026-11', { paidAt: '2026-12-05T10:00:00.000Z', reference: 'PP-2', by: 'admin@humanly.example' }, expect.objectContaining({ action: 'marked-paid' }));
  });
});
