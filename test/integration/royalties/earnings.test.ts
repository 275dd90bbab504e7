// The talent's royalties on the twin (docs/royalties.md#talent-portal): live earnings of this
// month, closed statements with their lines, the CSV download and payout details, through the
// real functions behind the site's authorizer and DynamoDB Local. The accruals are written as
// DeliverImages writes them and the statement as the monthly close stores it (claimed accruals,
// figures from the royalty function), so each answer is checked against hand-computed figures.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { seedUser } from '../../../infra/local/provision';
import { EarningsResponse, StatementDetail, StatementList } from '../../../events/royalties';
import { buildStatement, monthOfIso, previousMonth } from '../../../functions/royalties/arithmetic';
import { STATEMENT_NOT_FOUND_MESSAGE, statementId } from '../../../events/royalty-values';
import { generationKeys } from '../../../functions/generation/keys';
import { royaltyStore } from '../../../functions/royalties/store';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { csvRecords } from '../../support/csv';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';
import { fileMarker } from '../../support/marker';

jest.setTimeout(120_000);
const twin = useTwin();
const PASSWORD = 'Str0ng!Passw0rd-roy';
const run = fileMarker('ern');
const now = new Date().toISOString();
const thisMonth = monthOfIso(now);
const closedMonth = previousMonth(now);
// A $0.333333 credit: a standard license (20%) earns 66,666 micro-dollars.
const VALUE = 333_333;

const table = () => twin().physicalName('GenerationsTable');
const royalties = () => royaltyStore(documentClient(twin()), table());

const call = (token: string, method: string, path: string, body?: unknown) => callApi(twin(), token, method, path, body);

/** An accrual as DeliverImages writes it beside a license. */
async function accrue(talentId: string, month: string, n: number, statementMonth?: string, credit: { creditValueMicros: number; promotional?: true; noRoyalty?: 'own-account' } = { creditValueMicros: VALUE }) {
  const licenseId = `lic_${run}${String(n).padStart(14, '0')}`;
  const at = `${month}-0${n}T12:00:00.000Z`;
  await documentClient(twin()).send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...generationKeys.accrual(talentId, month, licenseId),
        licenseId,
        generationId: `gen-${run}-${n}`,
        accountId: `client-${run}`,
        talentId,
        planId: 'starter',
        ...credit,
        month,
        at,
        royaltyPlan: 'standard-tiers',
        ...(statementMonth ? { statementMonth } : {}),
      },
    }),
  );
  return { licenseId, at };
}

/** What the monthly close stores: the claimed accruals' statement. */
async function closeStatement(talentId: string, talentName: string) {
  const claimed = await royalties().claimedAccruals(talentId, closedMonth, closedMonth, 'standard-tiers');
  const { totals } = buildStatement(claimed, 0);
  const stored = await royalties().putStatement({
    id: statementId(closedMonth, talentId),
    talentId,
    talentName,
    month: closedMonth,
    closedAt: `${thisMonth}-01T01:00:05.000Z`,
    totals,
    fromMonth: closedMonth,
    audit: [],
  });
  expect(stored).toBe(true);
}

async function acceptedTalent(who: string) {
  const email = `roy.${who}.${run}@people.example`;
  const talentId = `roy-${who}-${run}`;
  await createAcceptedTalent(twin(), { email, talentId, firstName: who, lastName: 'Earner', founding: false, marker: `${who}-${run}` });
  await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['talent'], attributes: { 'custom:role': 'talent' } });
  return { talentId, token: await idToken(twin(), email, PASSWORD, 'web') };
}

let me: { talentId: string; token: string };
let other: { talentId: string; token: string };
const closed: { licenseId: string; at: string }[] = [];

beforeAll(async () => {
  [me, other] = await Promise.all([acceptedTalent('ines'), acceptedTalent('omar')]);
  // Last month: three licenses the close claimed. This month: two, and one of last month that
  // arrived after the close (late: the next statement takes it).
  for (const n of [1, 2, 3]) closed.push(await accrue(me.talentId, closedMonth, n, closedMonth));
  await Promise.all([accrue(me.talentId, thisMonth, 1), accrue(me.talentId, thisMonth, 2), accrue(me.talentId, closedMonth, 4), accrue(other.talentId, closedMonth, 1, closedMonth)]);
  await Promise.all([closeStatement(me.talentId, 'Ines Earner'), closeStatement(other.talentId, 'Omar Earner')]);
});

describe('a talent’s royalties', () => {
  it('shows this month live with the remainder carried in, the statements with their payout status, and saves payout details', async () => {
    // Last month: 3 x 66,666 = 199,998 micros: 19 cents paid, 9,998 carried out. This month so
    // far: 3 x 66,666 (the late one included) + 9,998 carried in = 209,996: 20 cents, 9,996 left.
    const earnings = EarningsResponse.parse((await call(me.token, 'GET', '/me/earnings')).json);
    expect(earnings).toEqual({
      month: thisMonth,
      totals: {
        licenses: 3,
        grossMicros: 999_999,
        royaltyMicros: 199_998,
        carriedInMicros: 9_998,
        royaltyCents: 20,
        carriedOutMicros: 9_996,
        tiers: [{ tier: 'standard-1', rateBps: 2000, licenses: 3, grossMicros: 999_999, royaltyMicros: 199_998 }],
      },
    });

    const list = await call(me.token, 'GET', '/me/statements');
    expect(list.status).toBe(200);
    const { statements } = StatementList.parse(list.json);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ id: `${closedMonth}_${me.talentId}`, month: closedMonth, totals: { licenses: 3, royaltyCents: 19, carriedOutMicros: 9_998 }, payout: { status: 'due' } });

    // Payouts go through Stripe Connect (docs/payouts.md): the old payout-details route is gone.
    expect((await call(me.token, 'PUT', '/me/payout-details', { accountHolder: 'Ines Earner', payoutEmail: 'ines@pay.example' })).status).toBe(404);
  });

  it('shows this month’s promotional licenses in their own section, capped, and counts the images that earn nothing', async () => {
    // Two Free plan images (promotional credits at $0.298888: 20% = 59,777 each) and one of the
    // talent's own account (nothing) this month. Last month's statement paid 66,666 -> 6 cents and
    // carried 6,666: 119,554 + 6,666 = 126,220 -> 12 cents so far, 6,220 left.
    await accrue(other.talentId, thisMonth, 5, undefined, { creditValueMicros: 298_888, promotional: true });
    await accrue(other.talentId, thisMonth, 6, undefined, { creditValueMicros: 298_888, promotional: true });
    await accrue(other.talentId, thisMonth, 7, undefined, { creditValueMicros: 0, noRoyalty: 'own-account' });
    const earnings = EarningsResponse.parse((await call(other.token, 'GET', '/me/earnings')).json);
    expect(earnings.totals).toEqual({
      licenses: 2,
      grossMicros: 597_776,
      royaltyMicros: 119_554,
      carriedInMicros: 6_666,
      royaltyCents: 12,
      carriedOutMicros: 6_220,
      // Promotional licenses take no place in the tiers; the twin's cap is the default $25.
      tiers: [],
      promotional: { licenses: 2, grossMicros: 597_776, earnedMicros: 119_554, capMicros: 25_000_000, cutMicros: 0, royaltyMicros: 119_554 },
      noRoyaltyLicenses: 1,
    });
  });

  it('opens only the caller’s own statement, with every line and no client, and downloads it as CSV', async () => {
    const id = `${closedMonth}_${me.talentId}`;
    const res = await call(me.token, 'GET', `/me/statements/${id}`);
    expect(res.status).toBe(200);
    const detail = StatementDetail.parse(res.json);
    expect(detail.lines.map((l) => [l.licenseId, l.ordinal, l.tier, l.royaltyMicros])).toEqual(closed.map((c, i) => [c.licenseId, i + 1, 'standard-1', 66_666]));
    expect(res.text).not.toContain(`client-${run}`);

    // Another talent's statement answers as a missing one; a malformed id names the problem.
    const theirs = await call(me.token, 'GET', `/me/statements/${closedMonth}_${other.talentId}`);
    expect(theirs).toMatchObject({ status: 404, json: { error: STATEMENT_NOT_FOUND_MESSAGE } });
    expect((await call(me.token, 'GET', `/me/statements/${closedMonth}_${other.talentId}/csv`)).status).toBe(404);
    expect((await call(me.token, 'GET', `/me/statements/1999-01_${me.talentId}`)).status).toBe(404);
    const malformed = await call(me.token, 'GET', '/me/statements/last-month');
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('statement id such as 2026-11_maya-chen');

    const csv = await call(me.token, 'GET', `/me/statements/${id}/csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="humanly-statement-${closedMonth}.csv"`);
    const rows = csvRecords(csv.text);
    expect(rows.filter((r) => r.Row === 'license').map((r) => [r.Date, r.License, r['Rate %'], r['Credit value USD'], r['Royalty USD']])).toEqual(
      closed.map((c) => [c.at.slice(0, 10), c.licenseId, '20', '0.333333', '0.066666']),
    );
    expect(rows.find((r) => r.Row === 'paid')!['Royalty USD']).toBe('0.19');
    expect(rows.find((r) => r.Row === 'carried out')!['Royalty USD']).toBe('0.009998');
  });
});
