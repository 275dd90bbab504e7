// What the monthly close and the console refuse (docs/royalties.md "Monthly close", "Review
// console"): a month that has not ended (UTC) is closed by nobody, before anything is read or
// claimed; and a talent's statement the close could not close is counted as the StatementsNotClosed
// metric (CloudWatch's embedded metric format, which its alarm watches).
import { FAILURE_METRICS } from '../../../events/metrics';
import { assertMonthEnded, MonthNotEndedError } from '../../../functions/royalties/arithmetic';
import { CloseInput, planClose } from '../../../functions/royalties/steps/close-plan/service';
import { closeTalentMonth, type CloseTalentMonthDeps } from '../../../functions/royalties/steps/close-talent-month/service';
import { reportNotClosed, ReportNotClosedInput } from '../../../functions/royalties/steps/report-not-closed/service';

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
