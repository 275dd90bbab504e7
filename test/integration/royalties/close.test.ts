// The monthly close on the twin (docs/royalties.md#monthly-close): accruals written through the
// real store path (generationStore.addLicense, as DeliverImages writes them) for a talent of this
// run, then the MonthlyCloseSchedule rule fired as of 1 April 2019 starts the RoyaltyClose state
// machine: the statement's figures are the hand-computed ones and the talent is emailed once. A
// rerun writes nothing and emails no one; a license of March written after the close stays open
// and lands on April's statement. June's promotional licenses are paid up to the stage's cap (the
// twin's default, $25), the cut shown, without moving the paid licenses' tiers, and images of the
// talent's own account are counted and earn nothing (decision 037). A close of the month still
// running, asked for by an operator or by the schedule timed in the future, is refused and closes
// nothing. The closed months are far in the past, so other tests' accruals cannot mix with these.
import { randomUUID } from 'node:crypto';
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { generationStore, type AccrualCredit } from '../../../functions/generation/store';
import { generationKeys } from '../../../functions/generation/keys';
import { royaltyStore, type StatementRecord } from '../../../functions/royalties/store';
import { monthOfIso } from '../../../functions/royalties/arithmetic';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { eventually } from '../../support/eventually';
import { documentClient, useTwin } from '../../support/twin';
import { fileMarker } from '../../support/marker';

jest.setTimeout(120_000);
const twin = useTwin();
const run = fileMarker('cls');
const talentId = `closing-${run}`;
const talentEmail = `closing.talent.${run}@people.example`;
// Starter $35 / 80 credits = 437,500 micro-dollars a credit; Pro $109 / 300 = 363,333.
const STARTER = 437_500;
const PRO = 363_333;
// A promotional credit at the cheapest paid credit, Enterprise's $269 / 900 = 298,888: 20% = 59,777.
const PROMO = 298_888;

const doc = () => documentClient(twin());
const royalties = () => royaltyStore(doc(), twin().physicalName('GenerationsTable'));
// The statement emails (the payout run that follows a close may also ask the talent to set up payouts).
const emailsToTalent = async () => (await twin().emails()).filter((m) => m.to.includes(talentEmail) && m.subject.includes('statement'));

let n = 0;
/** A license of this run's talent issued at `issuedAt`, with its accrual, as DeliverImages writes it. */
async function license(
  issuedAt: string,
  planId: 'free' | 'starter' | 'pro',
  creditValueMicros: number,
  royaltyPlan: 'standard-tiers' | undefined = 'standard-tiers',
  credit: AccrualCredit = { creditValueMicros },
): Promise<string> {
  const id = `lic_${run}${String(++n).padStart(14, '0')}`;
  const written = await generationStore(doc(), twin().physicalName('GenerationsTable')).addLicense(
    {
      id,
      generationId: randomUUID(),
      index: 0,
      key: `generations/close-${run}/${id}.png`,
      talentId,
      talentName: 'Ines Duarte',
      accountId: `client-${run}`,
      licensee: 'Close Test Client',
      style: 'Portrait',
      scope: 'commercial',
      issuedAt,
      creditValueMicros,
    },
    planId,
    royaltyPlan,
    credit,
  );
  expect(written).toBe(true);
  return id;
}

/** The statement once it is closed and its email recorded. */
const notifiedStatement = (month: string) =>
  eventually(async () => {
    const s = await royalties().getStatement(talentId, month);
    return s?.notifiedAt ? s : undefined;
  }, { timeoutMs: 60_000, what: `the statement of ${month}` });

const sfn = () => new SFNClient({ endpoint: twin().urls.control, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
function closeMachineArn(): string {
  const machine = Object.values(twin().template.Resources).find((r) => r.Type === 'AWS::StepFunctions::StateMachine' && String(r.Properties?.StateMachineName).endsWith('-RoyaltyClose'));
  const name = machine?.Properties?.StateMachineName;
  if (typeof name !== 'string') throw new Error('the RoyaltyClose state machine has no literal name in the template');
  return twin().functions()[0].arn.replace(/^arn:aws:lambda:([^:]+):([^:]+):.*$/, `arn:aws:states:$1:$2:stateMachine:${name}`);
}

beforeAll(async () => {
  const accepted = await createAcceptedTalent(twin(), { email: talentEmail, talentId, firstName: 'Ines', lastName: 'Duarte', founding: false, marker: `close-${run}` });
  // The catalog item names the application the talent came from (their address for notices).
  await doc().send(
    new UpdateCommand({ TableName: twin().physicalName('CatalogTalentTable'), Key: { id: talentId }, UpdateExpression: 'SET applicationId = :a', ExpressionAttributeValues: { ':a': accepted.applicationId } }),
  );
});

describe('the monthly close on the twin', () => {
  let march: StatementRecord;
  let aprilClosed: StatementRecord | undefined;

  test('the schedule of 1 April 2019 closes March: the figures computed by hand, the talent emailed once', async () => {
    await license('2019-03-02T09:00:00.000Z', 'starter', STARTER);
    // Written as before plans were recorded on accruals: the close takes the talent's plan and records it.
    const legacy = await license('2019-03-15T12:00:00.000Z', 'starter', STARTER, undefined);
    await license('2019-03-20T18:30:00.000Z', 'starter', STARTER);
    await license('2019-03-31T23:00:00.000Z', 'pro', PRO);
    // April's license is not March's.
    await license('2019-04-01T00:10:00.000Z', 'starter', STARTER);

    await twin().events.runScheduled('MonthlyCloseSchedule', '2019-04-01T01:00:00Z');
    march = await notifiedStatement('2019-03');
    // 3 Starter licenses at 20%: 3 x 87,500 = 262,500; 1 Pro at 20%: 72,666 (72,666.6 rounded down).
    // 335,166 micro-dollars: 33 cents paid, 5,166 carried.
    expect(march).toMatchObject({ id: `2019-03_${talentId}`, talentName: 'Ines Duarte', month: '2019-03', fromMonth: '2019-03', audit: [] });
    expect(march.totals).toEqual({
      licenses: 4,
      grossMicros: 3 * STARTER + PRO,
      royaltyMicros: 335_166,
      carriedInMicros: 0,
      royaltyCents: 33,
      carriedOutMicros: 5_166,
      tiers: [{ tier: 'standard-1', rateBps: 2000, licenses: 4, grossMicros: 3 * STARTER + PRO, royaltyMicros: 335_166 }],
    });
    const claimed = await doc().send(new GetCommand({ TableName: twin().physicalName('GenerationsTable'), Key: generationKeys.accrual(talentId, '2019-03', legacy) }));
    expect(claimed.Item).toMatchObject({ statementMonth: '2019-03', royaltyPlan: 'standard-tiers' });
    const mails = await eventually(async () => ((await emailsToTalent()).length ? emailsToTalent() : undefined), { timeoutMs: 60_000, what: 'the statement email' });
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Your Humanly statement for March 2019 is ready');
    expect(mails[0].text).toContain('$0.33');
    expect(mails[0].text).toContain(`${twin().urls.web.replace(/\/+$/, '')}/talent-portal`);
  });

  test('a rerun changes nothing and emails no one; a late March license lands on April\'s statement', async () => {
    expect(march).toBeDefined();
    // Issued on 31 March, delivered after March closed.
    await license('2019-03-31T23:59:30.000Z', 'starter', STARTER);

    const { executionArn } = await sfn().send(
      new StartExecutionCommand({ stateMachineArn: closeMachineArn(), input: JSON.stringify({ 'detail-type': 'Scheduled Event', source: 'aws.events', time: '2019-04-01T01:00:00Z', detail: {} }) }),
    );
    const done = await eventually(async () => {
      const d = await sfn().send(new DescribeExecutionCommand({ executionArn }));
      return d.status === 'RUNNING' ? undefined : d;
    }, { timeoutMs: 60_000, what: 'the rerun' });
    expect(done.status).toBe('SUCCEEDED');
    const output = JSON.parse(done.output!) as { month: string; results: Array<{ talentId: string; closed: { outcome: string } }> };
    expect(output.month).toBe('2019-03');
    expect(output.results.find((r) => r.talentId === talentId)?.closed.outcome).toBe('unchanged');
    expect(await royalties().getStatement(talentId, '2019-03')).toEqual(march);
    expect(await emailsToTalent()).toHaveLength(1);

    await twin().events.runScheduled('MonthlyCloseSchedule', '2019-05-01T01:00:00Z');
    const april = await notifiedStatement('2019-04');
    // The late March license and April's own: 2 x 87,500 = 175,000 + 5,166 carried = 180,166 -> 18 cents, 166 carried.
    expect(april).toMatchObject({ fromMonth: '2019-03', totals: { licenses: 2, royaltyMicros: 175_000, carriedInMicros: 5_166, royaltyCents: 18, carriedOutMicros: 166 } });
    const lines = await royalties().claimedAccruals(talentId, '2019-04', april.fromMonth, 'standard-tiers');
    expect(lines.map((l) => l.month).sort()).toEqual(['2019-03', '2019-04']);
    expect((await emailsToTalent()).map((m) => m.subject)).toEqual(['Your Humanly statement for March 2019 is ready', 'Your Humanly statement for April 2019 is ready']);
    aprilClosed = april;
  });

  test('promotional licenses are paid up to the cap with the cut on the statement, own-account images are counted, and neither moves the tiers', async () => {
    // April carried 166 micro-dollars out.
    expect(aprilClosed?.totals.carriedOutMicros).toBe(166);
    // 420 promotional licenses (Free plan credits) from 1 June, one a minute: 420 x 59,777 = 25,106,340
    // earned, over the $25 cap by 106,340. Then 2 paid Starter licenses: still licenses 1 and 2 at
    // 20% (2 x 87,500). And 3 images by the talent's own account: value 0, counted, never paid.
    const at = (minute: number) => new Date(Date.parse('2019-06-01T00:00:00Z') + minute * 60_000).toISOString();
    const minutes = Array.from({ length: 420 }, (_, i) => i);
    for (let i = 0; i < minutes.length; i += 20) {
      await Promise.all(minutes.slice(i, i + 20).map((m) => license(at(m), 'free', PROMO, 'standard-tiers', { creditValueMicros: PROMO, promotional: true })));
    }
    const paid = [await license(at(500), 'starter', STARTER), await license(at(501), 'starter', STARTER)];
    for (const m of [502, 503, 504]) await license(at(m), 'starter', 0, 'standard-tiers', { creditValueMicros: 0, noRoyalty: 'own-account' });

    await twin().events.runScheduled('MonthlyCloseSchedule', '2019-07-01T01:00:00Z');
    const june = await notifiedStatement('2019-06');
    // 175,000 paid + 25,000,000 promotional + 166 carried in from April = 25,175,166: 2,517 cents, 5,166 carried.
    expect(june.totals).toEqual({
      licenses: 422,
      grossMicros: 420 * PROMO + 2 * STARTER,
      royaltyMicros: 25_175_000,
      carriedInMicros: 166,
      royaltyCents: 2517,
      carriedOutMicros: 5_166,
      tiers: [{ tier: 'standard-1', rateBps: 2000, licenses: 2, grossMicros: 2 * STARTER, royaltyMicros: 175_000 }],
      promotional: { licenses: 420, grossMicros: 420 * PROMO, earnedMicros: 25_106_340, capMicros: 25_000_000, cutMicros: 106_340, royaltyMicros: 25_000_000 },
      noRoyaltyLicenses: 3,
    });
    // Every accrual of June is the statement's, the ones that earn nothing too.
    const claimed = await royalties().claimedAccruals(talentId, '2019-06', june.fromMonth, 'standard-tiers');
    expect(claimed).toHaveLength(425);
    expect(claimed.filter((a) => a.noRoyalty === 'own-account')).toHaveLength(3);
    expect(claimed.filter((a) => paid.includes(a.licenseId)).every((a) => !a.promotional && !a.noRoyalty)).toBe(true);
    const mails = await emailsToTalent();
    expect(mails.at(-1)?.subject).toBe('Your Humanly statement for June 2019 is ready');
    expect(mails.at(-1)?.text).toContain('$25.17');
  });

  test('a month that has not ended is refused, from an operator or a schedule timed in the future, and closes nothing', async () => {
    const now = new Date();
    const month = monthOfIso(now.toISOString());
    const open = await license(now.toISOString(), 'starter', STARTER);
    const nextFirst = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 1)).toISOString();
    for (const input of [{ month }, { 'detail-type': 'Scheduled Event', source: 'aws.events', time: nextFirst, detail: {} }]) {
      const { executionArn } = await sfn().send(new StartExecutionCommand({ stateMachineArn: closeMachineArn(), input: JSON.stringify(input) }));
      const done = await eventually(async () => {
        const d = await sfn().send(new DescribeExecutionCommand({ executionArn }));
        return d.status === 'RUNNING' ? undefined : d;
      }, { timeoutMs: 60_000, what: 'the refused close' });
      expect({ input, status: done.status, error: done.error }).toEqual({ input, status: 'FAILED', error: 'MonthNotEnded' });
      expect(done.cause).toContain(`The month ${month} has not ended`);
    }
    expect(await royalties().getStatement(talentId, month)).toBeUndefined();
    const accrual = await doc().send(new GetCommand({ TableName: twin().physicalName('GenerationsTable'), Key: generationKeys.accrual(talentId, month, open) }));
    expect(accrual.Item?.statementMonth).toBeUndefined();
  });
});
