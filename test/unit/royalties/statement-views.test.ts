// A statement as the talent and the console see it (functions/royalties/statement-views.ts): the
// payout status computed on read, the lines rebuilt from claimed accruals and checked against
// the stored totals, the CSV read back, and the amounts written with integer arithmetic.
import fc from 'fast-check';
import { dollarsOfCents, dollarsOfMicros, dollarsOfMicrosToCent, percentOfBps } from '../../../events/royalty-format';
import { StatementDetail, StatementSummary, type AccrualLine } from '../../../events/royalties';
import { buildStatement } from '../../../functions/royalties/arithmetic';
import { payoutOf, statementCsv, statementCsvFilename, statementDetailOf, StatementMismatchError, statementSummaryOf } from '../../../functions/royalties/statement-views';
import type { StatementRecord } from '../../../functions/royalties/store';
import { csvRecords } from '../../support/csv';

const accrual = (n: number, over: Partial<AccrualLine> = {}): AccrualLine & { talentId: string; accountId: string } => ({
  licenseId: `lic_${String(n).padStart(22, '0')}`,
  generationId: `gen-${n}`,
  at: `2026-11-0${n}T10:00:00.000Z`,
  month: '2026-11',
  creditValueMicros: 500_000,
  royaltyPlan: 'founding-35',
  // Fields a stored accrual has beside the line's: never shown on a statement.
  talentId: 'nia-okafor',
  accountId: 'client-account-1',
  ...over,
});

// Three founding licenses of a $0.50 credit: 3 x 175,000 micros, plus 9,000 carried in =
// 534,000 micros: 53 cents paid, 4,000 micros carried out.
const claimed = [accrual(3), accrual(1), accrual(2)];
const record = (over: Partial<StatementRecord> = {}): StatementRecord => ({
  id: '2026-11_nia-okafor',
  talentId: 'nia-okafor',
  talentName: 'Nia Okafor',
  month: '2026-11',
  closedAt: '2026-12-01T01:00:05.000Z',
  totals: buildStatement(claimed, 9_000).totals,
  fromMonth: '2026-10',
  audit: [{ at: '2026-12-03T09:00:00.000Z', by: 'admin-sub', action: 'marked-paid', detail: 'PAY-1' }],
  ...over,
});

describe('payout status', () => {
  it('is paid once marked, nothing-due under a cent, else due', () => {
    const paid = { paidAt: '2026-12-03T09:00:00.000Z', reference: 'PAY-1', by: 'admin-sub' };
    expect(payoutOf(record({ paid }))).toEqual({ status: 'paid', paidAt: paid.paidAt, reference: 'PAY-1' });
    expect(payoutOf(record())).toEqual({ status: 'due' });
    const underACent = record({ totals: buildStatement([accrual(1, { creditValueMicros: 20_000 })], 0).totals });
    expect(underACent.totals.royaltyCents).toBe(0);
    expect(payoutOf(underACent)).toEqual({ status: 'nothing-due' });
    // A paid statement stays paid even with nothing due.
    expect(payoutOf({ ...underACent, paid }).status).toBe('paid');
  });
});

describe('statement views', () => {
  it('summarises without the audit or the admin, and details every line rebuilt from the claimed accruals', () => {
    const summary = statementSummaryOf(record({ paid: { paidAt: '2026-12-03T09:00:00.000Z', reference: 'PAY-1', by: 'admin-sub' } }));
    expect(StatementSummary.strict().parse(summary)).toEqual(summary);
    expect(JSON.stringify(summary)).not.toMatch(/admin-sub|audit/);
    const detail = statementDetailOf(record(), claimed, [], []);
    StatementDetail.parse(detail);
    expect(detail.totals).toMatchObject({ licenses: 3, royaltyMicros: 525_000, carriedInMicros: 9_000, royaltyCents: 53, carriedOutMicros: 4_000 });
    expect(detail.lines.map((l) => [l.licenseId, l.tier, l.rateBps, l.royaltyMicros])).toEqual([
      [accrual(1).licenseId, 'founding', 3500, 175_000],
      [accrual(2).licenseId, 'founding', 3500, 175_000],
      [accrual(3).licenseId, 'founding', 3500, 175_000],
    ]);
    // Never the client who licensed it.
    expect(JSON.stringify(detail)).not.toContain('client-account-1');
  });

  it('refuses to show lines that do not add up to the stored figures', () => {
    expect(() => statementDetailOf(record(), claimed.slice(1), [], [])).toThrow(StatementMismatchError);
    expect(() => statementDetailOf(record({ totals: { ...record().totals, carriedInMicros: 0 } }), claimed, [], [])).toThrow(StatementMismatchError);
  });
});

describe('statement CSV', () => {
  it('has a row per license in statement order, then the tier totals, carried in, paid and carried out', () => {
    const csv = statementCsv(statementDetailOf(record(), claimed, [], []));
    expect(statementCsvFilename('2026-11')).toBe('humanly-statement-2026-11.csv');
    const rows = csvRecords(csv);
    expect(rows).toEqual([
      ...[1, 2, 3].map((n) => ({
        Row: 'license',
        Date: `2026-11-0${n}`,
        License: accrual(n).licenseId,
        Tier: 'Founding 35%',
        'Rate %': '35',
        'Credit value USD': '0.500000',
        'Royalty USD': '0.175000',
      })),
      { Row: 'tier total', Date: '', License: '3 licenses', Tier: 'Founding 35%', 'Rate %': '35', 'Credit value USD': '1.500000', 'Royalty USD': '0.525000' },
      { Row: 'carried in', Date: '', License: '', Tier: '', 'Rate %': '', 'Credit value USD': '', 'Royalty USD': '0.009000' },
      { Row: 'paid', Date: '', License: '3 licenses', Tier: '', 'Rate %': '', 'Credit value USD': '1.500000', 'Royalty USD': '0.53' },
      { Row: 'carried out', Date: '', License: '', Tier: '', 'Rate %': '', 'Credit value USD': '', 'Royalty USD': '0.004000' },
    ]);
  });

  it('adds up: the license rows, less the promotional cap\'s cut, plus carried in equal paid plus carried out, for any statement', () => {
    const micros = (s: string) => Number(s.replace('.', ''));
    fc.assert(
      fc.property(
        fc.array(fc.record({ value: fc.integer({ min: 0, max: 50_000_000 }), founding: fc.boolean(), day: fc.integer({ min: 1, max: 28 }), promotional: fc.boolean() }), { maxLength: 260 }),
        fc.integer({ min: 0, max: 9_999 }),
        fc.integer({ min: 0, max: 100_000_000 }),
        (lines, carriedIn, cap) => {
          const accruals = lines.map((l, i) =>
            accrual(1, {
              licenseId: `lic_${String(i).padStart(22, '0')}`,
              at: `2026-11-${String(l.day).padStart(2, '0')}T00:00:00.000Z`,
              creditValueMicros: l.value,
              royaltyPlan: l.founding ? 'founding-35' : 'standard-tiers',
              ...(l.promotional ? { promotional: true as const } : {}),
            }),
          );
          const built = buildStatement(accruals, carriedIn, cap);
          const rows = csvRecords(statementCsv({ ...built, takenBack: [] }));
          const cut = micros(rows.find((r) => r.Row === 'promotional cap cut')?.['Royalty USD'] ?? '0');
          const sum = rows.filter((r) => r.Row === 'license').reduce((s, r) => s + micros(r['Royalty USD']!), 0) - cut;
          const carriedInRow = micros(rows.find((r) => r.Row === 'carried in')!['Royalty USD']!);
          const paidCents = Number(rows.find((r) => r.Row === 'paid')!['Royalty USD']!.replace('.', ''));
          const carriedOut = micros(rows.find((r) => r.Row === 'carried out')!['Royalty USD']!);
          return rows.filter((r) => r.Row === 'license').length === lines.length && sum + carriedInRow === paidCents * 10_000 + carriedOut;
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('promotional credits and licenses that earn nothing on a statement (decision 037)', () => {
  // Standard talent: 2 paid licenses of $0.50 at 20% (2 x 100,000), 3 promotional of $0.298888 at
  // 20% (3 x 59,777 = 179,331) under a cap of $0.15 (150,000: 29,331 cut), and 2 of their own account.
  const CAP = 150_000;
  const mixed = [
    accrual(1, { royaltyPlan: 'standard-tiers' }),
    ...[2, 3, 4].map((n) => accrual(n, { royaltyPlan: 'standard-tiers', creditValueMicros: 298_888, promotional: true })),
    accrual(5, { royaltyPlan: 'standard-tiers' }),
    ...[6, 7].map((n) => accrual(n, { royaltyPlan: 'standard-tiers', creditValueMicros: 0, noRoyalty: 'own-account' as const })),
  ];
  const closed = record({ totals: buildStatement(mixed, 0, CAP).totals });

  it('rebuilds with the cap the statement was closed with, and refuses lines whose kind changed', () => {
    const detail = statementDetailOf(closed, mixed, [], []);
    StatementDetail.parse(detail);
    expect(detail.totals).toMatchObject({
      licenses: 5,
      royaltyMicros: 350_000,
      royaltyCents: 35,
      carriedOutMicros: 0,
      promotional: { licenses: 3, grossMicros: 896_664, earnedMicros: 179_331, capMicros: CAP, cutMicros: 29_331, royaltyMicros: CAP },
      noRoyaltyLicenses: 2,
    });
    expect(detail.lines.map((l) => [l.licenseId, l.ordinal, l.promotional, l.royaltyMicros])).toEqual([
      [accrual(1).licenseId, 1, undefined, 100_000],
      ...[2, 3, 4].map((n) => [accrual(n).licenseId, undefined, true, 59_777]),
      [accrual(5).licenseId, 2, undefined, 100_000],
    ]);
    // A promotional accrual read back as paid (or the other way round) is a mismatch, never shown.
    const { promotional: _p, ...asPaid } = mixed[1]!;
    expect(() => statementDetailOf(closed, [mixed[0]!, asPaid, ...mixed.slice(2)], [], [])).toThrow(StatementMismatchError);
    // A statement closed before promotional credits existed has no cap: promotional accruals found now do not match it.
    const legacy = record({ totals: buildStatement([mixed[0]!, mixed[4]!], 0).totals });
    expect(statementDetailOf(legacy, [mixed[0]!, mixed[4]!], [], []).totals.promotional).toBeUndefined();
    expect(() => statementDetailOf(legacy, [mixed[0]!, mixed[1]!, mixed[4]!], [], [])).toThrow(StatementMismatchError);
  });

  it('lists the promotional section, the cap\'s cut and the licenses that earn nothing in the CSV, and still adds up', () => {
    const rows = csvRecords(statementCsv(statementDetailOf(closed, mixed, [], [])));
    expect(rows.filter((r) => r.Row === 'license').map((r) => [r.License, r.Tier, r['Royalty USD']])).toEqual([
      [accrual(1).licenseId, 'Licenses 1-50 at 20%', '0.100000'],
      ...[2, 3, 4].map((n) => [accrual(n).licenseId, 'Promotional credits at 20%', '0.059777']),
      [accrual(5).licenseId, 'Licenses 1-50 at 20%', '0.100000'],
    ]);
    expect(rows.filter((r) => r.Row !== 'license')).toEqual([
      { Row: 'tier total', Date: '', License: '2 licenses', Tier: 'Licenses 1-50 at 20%', 'Rate %': '20', 'Credit value USD': '1.000000', 'Royalty USD': '0.200000' },
      { Row: 'promotional total', Date: '', License: '3 licenses', Tier: 'Promotional credits', 'Rate %': '', 'Credit value USD': '0.896664', 'Royalty USD': '0.179331' },
      { Row: 'promotional cap cut', Date: '', License: '', Tier: 'Cap $0.15 a month', 'Rate %': '', 'Credit value USD': '', 'Royalty USD': '0.029331' },
      { Row: 'no royalty', Date: '', License: '2 licenses', Tier: '2 images by your own account or test grants earn no royalty', 'Rate %': '', 'Credit value USD': '', 'Royalty USD': '0.000000' },
      { Row: 'carried in', Date: '', License: '', Tier: '', 'Rate %': '', 'Credit value USD': '', 'Royalty USD': '0.000000' },
      { Row: 'paid', Date: '', License: '5 licenses', Tier: '', 'Rate %': '', 'Credit value USD': '1.896664', 'Royalty USD': '0.35' },
      { Row: 'carried out', Date: '', License: '', Tier: '', 'Rate %': '', 'Credit value USD': '', 'Royalty USD': '0.000000' },
    ]);
    // License rows (379,331) less the cut (29,331) plus carried in (0) = paid (35 cents) plus carried out (0).
    expect(379_331 - 29_331).toBe(35 * 10_000);
  });
});

describe('amounts', () => {
  it('writes micro-dollars, cents and rates exactly', () => {
    expect(dollarsOfMicros(0)).toBe('0.000000');
    expect(dollarsOfMicros(12_345_678)).toBe('12.345678');
    expect(dollarsOfCents(5)).toBe('0.05');
    expect(dollarsOfCents(123_456)).toBe('1234.56');
    expect(dollarsOfMicrosToCent(1_239_999)).toBe('1.23');
    expect(percentOfBps(3500)).toBe('35');
    expect(percentOfBps(2250)).toBe('22.5');
    expect(percentOfBps(2025)).toBe('20.25');
    expect(() => dollarsOfMicros(-1)).toThrow(/micros must be a whole number/);
    expect(() => dollarsOfCents(1.5)).toThrow(/cents must be a whole number/);
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (m) => BigInt(dollarsOfMicros(m).replace('.', '')) === BigInt(m)));
  });
});

describe('stored statements', () => {
  it('match their lines whatever order the stored figures come back in', () => {
    const stored = record();
    const reordered = JSON.parse(JSON.stringify(stored.totals, Object.keys(stored.totals).sort())) as StatementRecord['totals'];
    const shuffled = { ...reordered, tiers: stored.totals.tiers.map((t) => Object.fromEntries(Object.entries(t).reverse())) } as StatementRecord['totals'];
    expect(Object.keys(shuffled)).not.toEqual(Object.keys(stored.totals));
    expect(statementDetailOf({ ...stored, totals: shuffled }, claimed, [], []).lines).toHaveLength(3);
  });
});
