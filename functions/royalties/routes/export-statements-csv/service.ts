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
  'Payout email',
  'Account holder',
  'Paid at',
  'Reference',
] as const;

/** The download's file name: `humanly-payouts-2026-11.csv`. */
export const payoutCsvFilename = (month: string) => `humanly-payouts-${month}.csv`;

/**
 * A month's payouts as CSV, for the admin who pays them: one row per statement, by talent
 * name: what it pays (dollars from whole cents), where it stands, and where the money goes
 * (the talent's payout details, blank while they have given none).
 */
export async function exportStatementsCsv(royalties: Pick<RoyaltyStore, 'listStatementsOfMonth' | 'listStatements' | 'getPayoutDetails'>, month: string): Promise<string> {
  const { summaries, details } = await selectStatements(royalties, { month }, new Date());
  const rows = [...summaries]
    .sort((a, b) => a.talentName.localeCompare(b.talentName) || a.talentId.localeCompare(b.talentId))
    .map((s) => {
      const payTo = details.get(s.talentId);
      return {
        'Talent id': s.talentId,
        Talent: s.talentName,
        Month: s.month,
        Licenses: s.totals.licenses,
        'Royalty USD': dollarsOfCents(s.totals.royaltyCents),
        'Payout status': PAYOUT_STATUS_LABELS[s.payout.status],
        'Payout email': payTo?.payoutEmail ?? '',
        'Account holder': payTo?.accountHolder ?? '',
        'Paid at': s.payout.paidAt ?? '',
        Reference: s.payout.reference ?? '',
      };
    });
  return toCsv(PAYOUT_CSV_COLUMNS, rows);
}
