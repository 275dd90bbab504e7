// Which closed statements the console's queries select: the Statements list, the payout CSV and
// the dashboard's latest closed month.
import type * as z from 'zod';
import type { AdminStatementQuery, StatementSummary } from '../../events/royalties';
import { monthOfIso } from './arithmetic';
import { statementSummaryOf } from './statement-views';
import type { RoyaltyStore, StatementRecord } from './store';

/** How far back the console looks for the latest closed month (two years of monthly closes). */
const CLOSED_MONTH_LOOKBACK = 24;

export type StatementReads = Pick<RoyaltyStore, 'listStatementsOfMonth' | 'listStatements'>;

/** The month `n` months before `month` (`YYYY-MM`). */
export function monthsBefore(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) - n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/**
 * The latest month the monthly close wrote statements for, with its statements: the newest
 * month with any, looking back from the current month (a close writes none for a month nobody
 * earned in). Undefined when there is none in the last two years.
 */
export async function latestClosedMonth(
  royalties: Pick<RoyaltyStore, 'listStatementsOfMonth'>,
  now: Date,
): Promise<{ month: string; statements: StatementRecord[] } | undefined> {
  const current = monthOfIso(now.toISOString());
  for (let n = 0; n < CLOSED_MONTH_LOOKBACK; n += 1) {
    const month = monthsBefore(current, n);
    const statements = await royalties.listStatementsOfMonth(month);
    if (statements.length > 0) return { month, statements };
  }
  return undefined;
}

/**
 * The statements a console query selects: a month's (with `talentId`, that talent's of it), a
 * talent's (every month), or with neither the latest closed month's. Each with its payout
 * status, filtered by it when asked.
 */
export async function selectStatements(
  royalties: StatementReads,
  query: Pick<z.output<typeof AdminStatementQuery>, 'month' | 'talentId' | 'payout'>,
  now: Date,
): Promise<{ summaries: StatementSummary[]; records: StatementRecord[] }> {
  let records: StatementRecord[];
  if (query.month) {
    records = (await royalties.listStatementsOfMonth(query.month)).filter((s) => !query.talentId || s.talentId === query.talentId);
  } else if (query.talentId) {
    records = await royalties.listStatements(query.talentId);
  } else {
    records = (await latestClosedMonth(royalties, now))?.statements ?? [];
  }
  const both = records
    .map((record) => ({ record, summary: statementSummaryOf(record) }))
    .filter(({ summary }) => !query.payout || summary.payout.status === query.payout);
  return { summaries: both.map((b) => b.summary), records: both.map((b) => b.record) };
}
