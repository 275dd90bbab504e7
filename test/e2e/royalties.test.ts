import * as fs from 'node:fs';
import { MyPayoutsResponse } from '../../events/payouts';
import { StatementList } from '../../events/royalties';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { generationKeys } from '../../functions/generation/keys';
import { previousMonth } from '../../functions/royalties/arithmetic';
import { statementId } from '../../events/royalty-values';
import { seedUser } from '../../infra/local/provision';
import { gotoApp, useBrowser } from '../support/browser';
import { csvRecords } from '../support/csv';
import { eventually } from '../support/eventually';
import { generateAs, newClient, signInToConsole, submitApplication, waitForStatus } from '../support/review-console';
import { documentClient, idToken, useTwin } from '../support/twin';
import { seriousViolations, saveShots } from '../support/a11y';
import { fileMarker } from '../support/marker';
import { approvedModelConfig } from '../support/live-model';

// A talent's royalties end to end on the twin, in Chromium (docs/royalties.md#talent-portal): a
// standard applicant is accepted in the review console, made active with a generation config; a
// client on the Free plan generates two images with their likeness; the talent's portal shows
// this month's earnings live: the Free plan's credits are promotional, valued at the cheapest paid
// credit ($0.298888), and earn 20% without counting toward the tiers (2 x $0.059777 = $0.119554,
// $0.11 in whole cents). Only an ended month can be closed, so the two licenses' accruals are
// moved to last month (as if the client had generated then) and the close runs as of the 1st of
// this month; the talent opens the statement, adds payout details and downloads the CSV.
// With SHOTS=<dir>, the portal is also saved as screenshots at 1280 and 390 px.
jest.setTimeout(150_000);
const twin = useTwin();
const marker = fileMarker('ry');
const PASSWORD = 'Royalty-Passw0rd!';

const browser = useBrowser();

async function admin(method: string, route: string, body: unknown): Promise<void> {
  const token = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
  const res = await fetch(`${twin().urls.api}/admin${route}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${method} /admin${route} answered ${res.status}: ${await res.text()}`);
}

it('a talent accepted in the console earns from a client’s images, sees it live, and gets the closed statement with its CSV', async () => {
  const email = `earner.${marker}@people.example`;
  const applicationId = await submitApplication(twin(), { email, firstName: 'Rosa', lastName: marker, program: 'standard' });
  await waitForStatus(twin(), applicationId, 'pending_review', 90_000);

  // The reviewer accepts it in the console.
  const consolePage = await signInToConsole(browser(), twin(), twin().admin.email, twin().admin.password);
  await consolePage.getByRole('menuitem', { name: 'Applications' }).waitFor({ timeout: 30_000 });
  await consolePage.goto(`${twin().urls.admin}/#/applications/${applicationId}/show`);
  await consolePage.getByRole('button', { name: 'Accept', exact: true }).click({ timeout: 30_000 });
  // No ID verified on this application: accepting past the gates takes a reason and a named second proof.
  await consolePage.getByRole('dialog').getByLabel('Why accept anyway').fill('The ID was checked by hand in this test.');
  await consolePage.getByRole('dialog').getByLabel('Second proof').fill('Video call on 2 December with the applicant, ID shown on camera');
  await consolePage.getByRole('button', { name: 'Accept application' }).click({ timeout: 30_000 });
  await consolePage.getByText('Application accepted.').waitFor({ timeout: 30_000 });
  await consolePage.context().close();
  // The workflow goes on after the decision: the talent profile is created next.
  const talentId = await eventually(async () => (await waitForStatus(twin(), applicationId, 'accepted', 60_000)).talentId, { timeoutMs: 60_000, what: 'the accepted application to name its talent' });
  await admin('PATCH', `/talent/${talentId}`, { status: 'active' });
  // The talent approved their trained model (test/e2e/training.test.ts proves that part).
  await approvedModelConfig(twin(), talentId, marker);

  // A client on the Free plan ($0.30 a credit) makes two images with the likeness.
  const client = await newClient(twin(), `brand.${marker}@people.example`);
  // Hidden again whatever happens: other files on the shared twin count the library's models.
  const generation = await generateAs(twin(), client, { talentId, prompt: `A runner at dawn ${marker}`, style: 'Portrait', count: 2 }).finally(() => admin('PATCH', `/talent/${talentId}`, { status: 'hidden' }));
  expect(generation.status).toBe('succeeded');

  // The talent signs in: this month so far, live.
  await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['talent'], name: `Rosa ${marker}`, attributes: { 'custom:role': 'talent' } });
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await gotoApp(page, `${twin().urls.web}/sign-in?next=%2Ftalent-portal`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/talent-portal$/, { timeout: 30_000 });
  const royalties = page.getByTestId('royalties');
  await royalties.getByTestId('earnings-amount').waitFor({ timeout: 20_000 });
  expect(await royalties.getByTestId('earnings-amount').textContent()).toBe('$0.11');
  expect(await royalties.getByTestId('earnings-licenses').textContent()).toBe('2');
  // Promotional licenses take no place in the tiers, and their royalties are capped ($25 on the twin).
  expect(await royalties.getByTestId('tier-progress').textContent()).toBe('0 of 50 at 20%');
  expect(await royalties.getByTestId('earnings-promotional').textContent()).toBe('2 licenses of promotional credits earned $0.119554 (capped at $25.00 a month).');
  expect(await royalties.getByTestId('royalty-note').textContent()).toContain('Licenses 1-50 at 20%');
  await royalties.getByTestId('earnings-chart').waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await saveShots(page, 'royalties-live');

  // The close runs on the 1st for the month before, never for a month still running: the two
  // accruals move to last month, as if the client had generated then, and the close runs as of
  // the 1st of this month at 01:00 UTC.
  const now = new Date();
  const thisMonth = now.toISOString().slice(0, 7);
  const month = previousMonth(now.toISOString());
  const doc = documentClient(twin());
  const table = twin().physicalName('GenerationsTable');
  for (const [i, image] of generation.images.entries()) {
    const key = generationKeys.accrual(talentId, thisMonth, image.licenseId);
    const item = (await doc.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
    expect(item).toMatchObject({ promotional: true, creditValueMicros: 298_888 });
    await doc.send(new PutCommand({ TableName: table, Item: { ...item, ...generationKeys.accrual(talentId, month, image.licenseId), month, at: `${month}-28T12:0${i}:00.000Z` } }));
    await doc.send(new DeleteCommand({ TableName: table, Key: key }));
  }
  await twin().events.runScheduled('MonthlyCloseSchedule', `${thisMonth}-01T01:00:00.000Z`);
  const talentToken = await idToken(twin(), email, PASSWORD, 'web');
  await eventually(
    async () => {
      const res = await fetch(`${twin().urls.api}/me/statements`, { headers: { authorization: `Bearer ${talentToken}` } });
      return res.status === 200 && StatementList.parse(await res.json()).statements.length > 0;
    },
    { timeoutMs: 30_000, what: 'a statement after the close started' },
  );

  // The payout run after the close: $0.11 is under the payout minimum, so it is carried to the
  // next statement's payout.
  await eventually(
    async () => {
      const res = await fetch(`${twin().urls.api}/me/payouts`, { headers: { authorization: `Bearer ${talentToken}` } });
      const body = MyPayoutsResponse.parse(await res.json());
      return body.payouts.some((p) => p.statementId === statementId(month, talentId) && p.state === 'carried');
    },
    { timeoutMs: 30_000, what: "the payout run carrying the month's $0.11" },
  );

  // The statement, with its payout carried under the minimum.
  await page.reload();
  await royalties.getByTestId('earnings-amount').waitFor({ timeout: 20_000 });
  const statement = royalties.locator(`[data-testid="statement"][data-statement="${statementId(month, talentId)}"]`);
  await statement.waitFor({ timeout: 20_000 });
  expect(await statement.getByTestId('statement-amount').textContent()).toBe('$0.11');
  expect(await statement.getByTestId('statement-promotional').textContent()).toContain('Promotional credits (capped at $25.00 a month)');
  await statement.locator('summary').click();
  expect(await statement.getByTestId('statement-payout').getAttribute('data-state')).toBe('carried');
  expect(await statement.getByTestId('statement-payout').textContent()).toContain('$10.00');
  await statement.getByTestId('statement-line').nth(1).waitFor({ timeout: 20_000 });
  expect(await statement.getByTestId('statement-line').count()).toBe(2);
  expect(await statement.textContent()).not.toContain(marker);
  // This month starts again from nothing: the close took both licenses.
  expect(await royalties.getByTestId('earnings-amount').textContent()).toBe('$0.00');

  const [download] = await Promise.all([page.waitForEvent('download'), statement.getByTestId('statement-csv').click()]);
  expect(download.suggestedFilename()).toBe(`humanly-statement-${month}.csv`);
  const rows = csvRecords(fs.readFileSync((await download.path())!, 'utf8'));
  const licenses = rows.filter((r) => r.Row === 'license');
  expect(licenses.map((r) => [r.License, r.Tier, r['Rate %'], r['Credit value USD'], r['Royalty USD']]).sort()).toEqual(
    generation.images.map((i) => [i.licenseId, 'Promotional credits at 20%', '20', '0.298888', '0.059777']).sort(),
  );
  expect(rows.find((r) => r.Row === 'promotional total')!['Royalty USD']).toBe('0.119554');
  expect(rows.find((r) => r.Row === 'promotional cap cut')!['Royalty USD']).toBe('0.000000');
  // 119,554 micro-dollars: 11 cents paid, 9,554 carried to the next statement.
  expect(rows.find((r) => r.Row === 'paid')!['Royalty USD']).toBe('0.11');
  expect(rows.find((r) => r.Row === 'carried out')!['Royalty USD']).toBe('0.009554');

  expect(await seriousViolations(page)).toEqual([]);
  await saveShots(page, 'royalties-statement');
  expect(errors).toEqual([]);
  await context.close();
});
