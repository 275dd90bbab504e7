import * as fs from 'node:fs';
import { StatementList } from '../../events/royalties';
import { monthOfIso } from '../../functions/royalties/arithmetic';
import { statementId } from '../../events/royalty-values';
import { seedUser } from '../../infra/local/provision';
import { gotoApp, useBrowser } from '../support/browser';
import { csvRecords } from '../support/csv';
import { eventually } from '../support/eventually';
import { generateAs, newClient, signInToConsole, submitApplication, waitForStatus } from '../support/review-console';
import { idToken, useTwin } from '../support/twin';
import { seriousViolations, saveShots } from '../support/a11y';
import { fileMarker } from '../support/marker';

// A talent's royalties end to end on the twin, in Chromium (docs/royalties.md#talent-portal): a
// standard applicant is accepted in the review console, made active with a generation config; a
// client on the Free plan generates two images with their likeness; the talent's portal shows
// this month's earnings live (2 x 20% of a $0.30 credit = $0.12); the monthly close runs as of the
// 1st of next month; the talent opens the statement, adds payout details and downloads the CSV.
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
  await consolePage.getByRole('button', { name: 'Accept application' }).click({ timeout: 30_000 });
  await consolePage.getByText('Application accepted.').waitFor({ timeout: 30_000 });
  await consolePage.context().close();
  // The workflow goes on after the decision: the talent profile is created next.
  const talentId = await eventually(async () => (await waitForStatus(twin(), applicationId, 'accepted', 60_000)).talentId, { timeoutMs: 60_000, what: 'the accepted application to name its talent' });
  await admin('PATCH', `/talent/${talentId}`, { status: 'active' });
  await admin('PUT', `/talent/${talentId}/generation-config`, { model: `humanly-preview/${marker}`, triggerWord: marker });

  // A client on the Free plan ($0.30 a credit) makes two images with the likeness.
  const client = await newClient(twin(), `brand.${marker}@people.example`);
  const generation = await generateAs(twin(), client, { talentId, prompt: `A runner at dawn ${marker}`, style: 'Portrait', count: 2 });
  expect(generation.status).toBe('succeeded');
  // Out of the shared twin's library again (other files count its models); earnings do not depend on it.
  await admin('PATCH', `/talent/${talentId}`, { status: 'hidden' });

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
  expect(await royalties.getByTestId('earnings-amount').textContent()).toBe('$0.12');
  expect(await royalties.getByTestId('earnings-licenses').textContent()).toBe('2');
  expect(await royalties.getByTestId('tier-progress').textContent()).toBe('2 of 50 at 20%');
  expect(await royalties.getByTestId('royalty-note').textContent()).toContain('Licenses 1-50 at 20%');
  await royalties.getByTestId('earnings-chart').waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await saveShots(page, 'royalties-live');

  // The close of this month, as on the 1st of next month at 01:00 UTC.
  const now = new Date();
  const month = monthOfIso(now.toISOString());
  await twin().events.runScheduled('MonthlyCloseSchedule', new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 1)).toISOString());
  const talentToken = await idToken(twin(), email, PASSWORD, 'web');
  await eventually(
    async () => {
      const res = await fetch(`${twin().urls.api}/me/statements`, { headers: { authorization: `Bearer ${talentToken}` } });
      return res.status === 200 && StatementList.parse(await res.json()).statements.length > 0;
    },
    { timeoutMs: 30_000, what: 'a statement after the close started' },
  );

  // The statement: its payout waits for details; the talent adds them; it is due.
  await page.getByRole('button', { name: 'Refresh' }).click();
  const statement = royalties.locator(`[data-statement="${statementId(month, talentId)}"]`);
  await statement.waitFor({ timeout: 20_000 });
  expect(await statement.getByTestId('statement-amount').textContent()).toBe('$0.12');
  await statement.locator('summary').click();
  expect(await statement.getByTestId('payout-status').getAttribute('data-status')).toBe('awaiting-details');
  await statement.getByTestId('statement-line').nth(1).waitFor({ timeout: 20_000 });
  expect(await statement.getByTestId('statement-line').count()).toBe(2);
  expect(await statement.textContent()).not.toContain(marker);
  const details = royalties.getByTestId('payout-details');
  await details.getByLabel('Account holder').fill(`Rosa ${marker}`);
  await details.getByLabel('PayPal or Wise email').fill('not an email');
  await details.getByRole('button', { name: 'Save payout details' }).click();
  await details.getByRole('alert').filter({ hasText: 'Enter the email address of your PayPal or Wise account.' }).waitFor();
  await details.getByLabel('PayPal or Wise email').fill(`rosa.${marker}@payouts.example`);
  await details.getByRole('button', { name: 'Save payout details' }).click();
  await details.getByTestId('payout-email').waitFor();
  await statement.locator('[data-status="due"]').waitFor({ timeout: 20_000 });
  // This month starts again from nothing: the close took both licenses.
  expect(await royalties.getByTestId('earnings-amount').textContent()).toBe('$0.00');

  const [download] = await Promise.all([page.waitForEvent('download'), statement.getByTestId('statement-csv').click()]);
  expect(download.suggestedFilename()).toBe(`humanly-statement-${month}.csv`);
  const rows = csvRecords(fs.readFileSync((await download.path())!, 'utf8'));
  const licenses = rows.filter((r) => r.Row === 'license');
  expect(licenses.map((r) => [r.License, r.Tier, r['Rate %'], r['Credit value USD'], r['Royalty USD']]).sort()).toEqual(
    generation.images.map((i) => [i.licenseId, 'Licenses 1-50 at 20%', '20', '0.300000', '0.060000']).sort(),
  );
  expect(rows.find((r) => r.Row === 'paid')!['Royalty USD']).toBe('0.12');
  expect(rows.find((r) => r.Row === 'carried out')!['Royalty USD']).toBe('0.000000');

  expect(await seriousViolations(page)).toEqual([]);
  await saveShots(page, 'royalties-statement');
  expect(errors).toEqual([]);
  await context.close();
});
