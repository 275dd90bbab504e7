// A closed statement as the talent and the console see it (docs/royalties.md "Talent portal"):
// the stored record and its claimed accruals become StatementSummary / StatementDetail, with
// the payout status computed on read, and the statement's CSV. Never a prompt or a client.
import { isDeepStrictEqual } from 'node:util';
import { dollarsOfCents, dollarsOfMicros, dollarsOfMicrosToCent, lineTierLabel, percentOfBps } from '../../events/royalty-format';
import type { AccrualLine, GivenBackLine, Payout, StatementDetail, StatementLine, StatementSummary, StatementTotals, TakenBackLine } from '../../events/royalties';
import { buildStatement } from './arithmetic';
import { noRoyaltyNote, PROMOTIONAL_LABEL, TIER_LABELS } from '../../events/royalty-values';
import type { StatementRecord } from './store';
import { toCsv } from '../shared/csv';

/**
 * Where a statement's payout stands: `paid` once paid (a Stripe transfer, or a payment outside
 * Stripe an admin recorded); `nothing-due` when it pays no whole cent; otherwise `due`. The
 * payouts wing's record says more (carried under the minimum, waiting for an account, failed).
 */
export function payoutOf(record: Pick<StatementRecord, 'paid' | 'totals'>): Payout {
  if (record.paid) return { status: 'paid', paidAt: record.paid.paidAt, reference: record.paid.reference };
  if (record.totals.royaltyCents === 0) return { status: 'nothing-due' };
  return { status: 'due' };
}

/** A statement's summary: its stored figures and the payout status (no audit, no admin's id). */
export function statementSummaryOf(record: StatementRecord): StatementSummary {
  return {
    id: record.id,
    talentId: record.talentId,
    talentName: record.talentName,
    month: record.month,
    closedAt: record.closedAt,
    totals: record.totals,
    payout: payoutOf(record),
  };
}

/**
 * A closed statement whose claimed accruals no longer give its stored figures. A closed
 * statement is never rewritten, so this is a fault to look at, not something to show: the
 * monthly close's step fails without a retry (the RoyaltyClose machine matches the error by its
 * name, `StatementMismatch`, and its alarm goes off) and a read of the statement answers 500.
 */
export class StatementMismatchError extends Error {
  constructor(
    id: string,
    readonly stored: StatementTotals,
    readonly rebuilt: StatementTotals,
  ) {
    super(`Statement ${id}: its claimed accruals do not add up to its stored totals`);
    // Set on the instance: Step Functions sees the name, and the bundles do not keep class names.
    this.name = 'StatementMismatch';
  }
}

/** The accrual fields a statement is built from (a stored accrual also names its client and claim). */
export function accrualLinesOf(claimed: readonly AccrualLine[]): AccrualLine[] {
  return claimed.map(({ licenseId, generationId, at, month, creditValueMicros, royaltyPlan, promotional, noRoyalty }) => ({
    licenseId,
    generationId,
    at,
    month,
    creditValueMicros,
    royaltyPlan,
    ...(promotional ? { promotional } : {}),
    ...(noRoyalty ? { noRoyalty } : {}),
  }));
}

/** Figures as plain data: stored maps come back in any key order, without attributes that were undefined. */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

/** Royalties taken back, as a statement lists them: by when they were taken back, then license id. */
function takenBackLinesOf(claimed: readonly TakenBackLine[]): TakenBackLine[] {
  return claimed
    .map(({ licenseId, at, statementMonth, royaltyMicros, reason }) => ({ licenseId, at, statementMonth, royaltyMicros, reason }))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.licenseId < b.licenseId ? -1 : a.licenseId > b.licenseId ? 1 : 0));
}

/**
 * A closed statement rebuilt from the accruals and the royalties taken back its close claimed,
 * through the royalty function with the remainder it carried in and the promotional cap it was
 * closed with (a later change of the stage's cap never changes a closed statement). The rebuild
 * must give the stored totals; any difference throws StatementMismatchError.
 */
export function rebuildStatement(
  record: Pick<StatementRecord, 'id' | 'totals'>,
  claimed: readonly AccrualLine[],
  takenBack: readonly TakenBackLine[],
  givenBack: readonly GivenBackLine[],
): { lines: StatementLine[]; totals: StatementTotals } {
  // A statement closed without promotional lines has no cap recorded: promotional accruals found now would not match it.
  const rebuilt = buildStatement(accrualLinesOf(claimed), record.totals.carriedInMicros, record.totals.promotional?.capMicros ?? 0, takenBack, givenBack);
  if (!isDeepStrictEqual(plain(rebuilt.totals), plain(record.totals))) throw new StatementMismatchError(record.id, record.totals, rebuilt.totals);
  return rebuilt;
}

/** The detail: the summary with every line (license, tier, rate, value, royalty), every royalty taken back and, when there are some, given back. */
export function statementDetailOf(record: StatementRecord, claimed: readonly AccrualLine[], takenBack: readonly TakenBackLine[], givenBack: readonly GivenBackLine[]): StatementDetail {
  return {
    ...statementSummaryOf(record),
    lines: rebuildStatement(record, claimed, takenBack, givenBack).lines,
    takenBack: takenBackLinesOf(takenBack),
    ...(givenBack.length > 0 ? { givenBack: takenBackLinesOf(givenBack) } : {}),
  };
}

/** The CSV's columns, in order. */
const STATEMENT_CSV_COLUMNS = ['Row', 'Date', 'License', 'Tier', 'Rate %', 'Credit value USD', 'Royalty USD'] as const;
type CsvRecord = Record<(typeof STATEMENT_CSV_COLUMNS)[number], string | number>;

/** The download's file name: `humanly-statement-2026-11.csv`. */
export const statementCsvFilename = (month: string) => `humanly-statement-${month}.csv`;

/**
 * A statement as CSV: one `license` row per license in statement order (UTC date, license id,
 * tier, rate, credit value, royalty: micro-dollar amounts with six decimals, exact), then
 * `tier total` rows, the promotional section (`promotional total`, what its lines earned, and
 * `promotional cap cut`, what the cap took off), `no royalty` (licenses that earn nothing, by
 * count), `carried in`, one `taken back` row per royalty taken back for a refund (negative) and
 * `taken back absorbed` (what Humanly absorbed of them), one `given back` row per royalty given
 * back for a license reinstated on appeal, `paid` (whole cents, two decimals) and `carried out`.
 * License rows, less the cap's cut, plus carried in, less what was taken back and not absorbed,
 * plus what was given back, always equal paid plus carried out.
 */
export function statementCsv(detail: Pick<StatementDetail, 'lines' | 'totals' | 'takenBack' | 'givenBack'>): string {
  const { promotional, takenBack } = detail.totals;
  const blank = { Date: '', License: '', Tier: '', 'Rate %': '', 'Credit value USD': '' };
  const rows: CsvRecord[] = [
    ...detail.lines.map((l) => ({
      Row: 'license',
      Date: l.at.slice(0, 10),
      License: l.licenseId,
      Tier: lineTierLabel(l),
      'Rate %': percentOfBps(l.rateBps),
      'Credit value USD': dollarsOfMicros(l.creditValueMicros),
      'Royalty USD': dollarsOfMicros(l.royaltyMicros),
    })),
    ...detail.totals.tiers.map((t) => ({
      ...blank,
      Row: 'tier total',
      License: `${t.licenses} licenses`,
      Tier: TIER_LABELS[t.tier],
      'Rate %': percentOfBps(t.rateBps),
      'Credit value USD': dollarsOfMicros(t.grossMicros),
      'Royalty USD': dollarsOfMicros(t.royaltyMicros),
    })),
    ...(promotional
      ? [
          {
            ...blank,
            Row: 'promotional total',
            License: `${promotional.licenses} licenses`,
            Tier: PROMOTIONAL_LABEL,
            'Credit value USD': dollarsOfMicros(promotional.grossMicros),
            'Royalty USD': dollarsOfMicros(promotional.earnedMicros),
          },
          { ...blank, Row: 'promotional cap cut', Tier: `Cap $${dollarsOfMicrosToCent(promotional.capMicros)} a month`, 'Royalty USD': dollarsOfMicros(promotional.cutMicros) },
        ]
      : []),
    ...(detail.totals.noRoyaltyLicenses ? [{ ...blank, Row: 'no royalty', License: `${detail.totals.noRoyaltyLicenses} licenses`, Tier: noRoyaltyNote(detail.totals.noRoyaltyLicenses), 'Royalty USD': dollarsOfMicros(0) }] : []),
    { ...blank, Row: 'carried in', 'Royalty USD': dollarsOfMicros(detail.totals.carriedInMicros) },
    ...detail.takenBack.map((t) => ({ ...blank, Row: 'taken back', Date: t.at.slice(0, 10), License: t.licenseId, Tier: t.reason, 'Royalty USD': `-${dollarsOfMicros(t.royaltyMicros)}` })),
    ...(takenBack && takenBack.absorbedMicros > 0 ? [{ ...blank, Row: 'taken back absorbed', Tier: 'Absorbed by Humanly: a statement never goes below zero', 'Royalty USD': dollarsOfMicros(takenBack.absorbedMicros) }] : []),
    ...(detail.givenBack ?? []).map((g) => ({ ...blank, Row: 'given back', Date: g.at.slice(0, 10), License: g.licenseId, Tier: g.reason, 'Royalty USD': dollarsOfMicros(g.royaltyMicros) })),
    { ...blank, Row: 'paid', License: `${detail.totals.licenses} licenses`, 'Credit value USD': dollarsOfMicros(detail.totals.grossMicros), 'Royalty USD': dollarsOfCents(detail.totals.royaltyCents) },
    { ...blank, Row: 'carried out', 'Royalty USD': dollarsOfMicros(detail.totals.carriedOutMicros) },
  ];
  return toCsv(STATEMENT_CSV_COLUMNS, rows);
}
