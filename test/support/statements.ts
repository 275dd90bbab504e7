// Closed statements for tests, written as the monthly close writes them: licenses through
// DeliverImages' store call (license + accrual), each accrual claimed for the month, the
// figures from the royalty function, the statement put once.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AccrualLine } from '../../events/royalties';
import { buildStatement } from '../../functions/royalties/arithmetic';
import { statementId } from '../../events/royalty-values';
import type { ROYALTY_PLANS } from '../../events/talent-values';
import { generationStore } from '../../functions/generation/store';
import { royaltyStore, type StatementRecord } from '../../functions/royalties/store';

export interface StatementFixture {
  talentId: string;
  talentName: string;
  month: string;
  royaltyPlan: (typeof ROYALTY_PLANS)[number];
  /** Each license's credit value in micro-dollars, issued in order through the month. */
  values: number[];
  carriedInMicros?: number;
  /** When the close ran; the 1st of the next month at 01:00 UTC by default. */
  closedAt?: string;
  /** Licenses of promotional credits after the paid ones, by credit value, and the cap the close applied ($25 by default). */
  promotionalValues?: number[];
  promotionalCapMicros?: number;
  /** Licenses that earn nothing (the talent's own account), after those. */
  noRoyaltyLicenses?: number;
  /** The client account of the licenses, and the purchase their paid credits came from (a refund of it finds them). */
  accountId?: string;
  creditSource?: string;
}

const nextMonthStart = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1, 1, 0, 0)).toISOString();
};

/** Writes the licenses, accruals and the closed statement of a fixture; answers the statement as stored. */
export async function putClosedStatement(doc: DynamoDBDocumentClient, tableName: string, f: StatementFixture): Promise<StatementRecord> {
  const generations = generationStore(doc, tableName);
  const royalties = royaltyStore(doc, tableName);
  const lines: AccrualLine[] = [];
  const kinds: Array<{ creditValueMicros: number; promotional?: true; noRoyalty?: 'own-account'; creditSource?: string }> = [
    ...f.values.map((creditValueMicros) => ({ creditValueMicros, ...(f.creditSource ? { creditSource: f.creditSource } : {}) })),
    ...(f.promotionalValues ?? []).map((creditValueMicros) => ({ creditValueMicros, promotional: true as const })),
    ...Array.from({ length: f.noRoyaltyLicenses ?? 0 }, () => ({ creditValueMicros: 0, noRoyalty: 'own-account' as const })),
  ];
  for (const [i, credit] of kinds.entries()) {
    const { creditValueMicros } = credit;
    const at = new Date(Date.parse(`${f.month}-01T00:00:00Z`) + (i + 1) * 60_000).toISOString();
    const licenseId = `lic-${f.talentId}-${f.month}-${i}`;
    const generationId = `gen-${f.talentId}-${f.month}-${i}`;
    await generations.addLicense(
      {
        id: licenseId,
        generationId,
        index: 0,
        key: `generations/test/${generationId}/${licenseId}.png`,
        talentId: f.talentId,
        talentName: f.talentName,
        accountId: f.accountId ?? 'statement-fixture-client',
        licensee: 'Fixture Brand',
        style: 'Commercial',
        scope: 'commercial',
        issuedAt: at,
        creditValueMicros,
      },
      'free',
      f.royaltyPlan,
      credit,
    );
    await royalties.claim(f.talentId, { month: f.month, licenseId }, f.month);
    const { creditSource: _source, ...line } = credit;
    lines.push({ licenseId, generationId, at, month: f.month, royaltyPlan: f.royaltyPlan, ...line });
  }
  const { totals } = buildStatement(lines, f.carriedInMicros ?? 0, f.promotionalCapMicros ?? 25_000_000);
  const record: StatementRecord = {
    id: statementId(f.month, f.talentId),
    talentId: f.talentId,
    talentName: f.talentName,
    month: f.month,
    closedAt: f.closedAt ?? nextMonthStart(f.month),
    totals,
    fromMonth: f.month,
    audit: [],
  };
  await royalties.putStatement(record);
  return record;
}
