import { dollarsOfCents } from '../../../../events/royalty-format';
import { PAYOUT_STATUS_LABELS } from '../../../../events/royalty-values';
import { toCsv } from '../../../shared/csv';
import type { RoyaltyStore } from '../../store';
import { selectStatements } from '../../statement-selection';

/** The payout CSV's columns, in order. */
const PAYOUT_CSV_COLUMNS = [
  'Talent id',
  'Talent',
  'Month',
  'Licenses',
  'Royalty USD',
  'Payout status',
  'Paid at',
  'Reference',
] as const;

/** The download's file name: `humanly-payouts-2026-11.csv`. */
export const payoutCsvFilename = (month: string) => `humanly-payouts-${month}.csv`;

/**
 * A month's payouts as CSV, for the admin who pays them: one row per statement, by talent
 * name: what it pays (dollars from whole cents) and where its payout stands. The payout run's
 * own CSV (docs/payouts.md) has the transfers.
 */
export async function exportStatementsCsv(royalties: Pick<RoyaltyStore, 'listStatementsOfMonth' | 'listStatements'>, month: string): Promise<string> {
  const { summaries } = await selectStatements(royalties, { month }, new Date());
  const rows = [...summaries]
    .sort((a, b) => a.talentName.localeCompare(b.talentName) || a.talentId.localeCompare(b.talentId))
    .map((s) => {
      return {
        'Talent id': s.talentId,
        Talent: s.talentName,
        Month: s.month,
        Licenses: s.totals.licenses,
        'Royalty USD': dollarsOfCents(s.totals.royaltyCents),
        'Payout status': PAYOUT_STATUS_LABELS[s.payout.status],
        'Paid at': s.payout.paidAt ?? '',
        Reference: s.payout.reference ?? '',
      };
    });
  return toCsv(PAYOUT_CSV_COLUMNS, rows);
}
