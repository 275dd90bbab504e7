import Stripe from 'stripe';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { transferGroupOf } from '../../events/payout-values';
import { statementId } from '../../events/royalty-values';
import { generationKeys } from '../../functions/generation/keys';
import { previousMonth } from '../../functions/royalties/arithmetic';
import { seedUser } from '../../infra/local/provision';
import { saveShots, seriousViolations } from '../support/a11y';
import { gotoApp, useBrowser } from '../support/browser';
import { eventually } from '../support/eventually';
import { fileMarker } from '../support/marker';
import { generateAs, newClient, signInToConsole, submitApplication, waitForStatus } from '../support/review-console';
import { documentClient, idToken, useTwin } from '../support/twin';
import { approvedModelConfig } from '../support/live-model';

// A talent paid through Stripe Connect end to end on the twin, in Chromium (docs/product.md
// #talent-portal, #console-payouts): an accepted talent sets up payouts on the Stripe emulator's
// hosted onboarding page and comes back to "Payouts active"; a client generates two images with
// their likeness; the month closes and the payout run's transfer fails (the platform's balance,
// a fault of the emulator scoped to this talent): the portal shows the failure, the console the
// failed row; the console retries it; the transfer is in the emulator (listed with the official
// client), once, and the portal shows Paid with its reference.
// Only an ended month can be closed, so the two licenses' accruals move to last month (as the
// royalties e2e does). Two images earn cents, under the $10 minimum, so the accruals are written
// as paid credits worth $30.00 each (an enterprise price): 2 x 20% x $30 = $12.00 is transferred.
// With SHOTS=<dir>, the portal's card and the console page are saved at 1280 and 390 px.
jest.setTimeout(240_000);
const twin = useTwin();
const marker = fileMarker('po');
const PASSWORD = 'Payouts-Passw0rd!';
const CREDIT_VALUE_MICROS = 30_000_000;
const browser = useBrowser();

/** No ID verified on this application: accepting past the gates takes a reason and a named second proof. */
const PAST_GATES = { identityReason: 'The ID was checked by hand in this test.', secondProof: 'Video call on 2 December with the applicant, ID shown on camera' };

async function admin(method: string, route: string, body: unknown): Promise<number> {
  const token = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
  const res = await fetch(`${twin().urls.api}/admin${route}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status === 409 && route.endsWith('/decision')) return res.status;
  if (res.status !== 200 && res.status !== 202) throw new Error(`${method} /admin${route} answered ${res.status}: ${await res.text()}`);
  return res.status;
}

/** The official client, pointed at the twin's Stripe emulator. */
async function stripe(): Promise<Stripe> {
  const url = new URL(twin().urls.stripe);
  return new Stripe((await twin().stripe.config()).secretKey, { host: url.hostname, port: Number(url.port), protocol: 'http' });
}

it('a talent sets up payouts on Stripe, earns, and after the close sees Paid with the transfer in Stripe and the console', async () => {
  const email = `payee.${marker}@people.example`;
  const applicationId = await submitApplication(twin(), { email, firstName: 'Noor', lastName: marker, program: 'standard' });
  await waitForStatus(twin(), applicationId, 'pending_review', 90_000);
  // The review step takes its task token a moment after the status reads pending_review (409 until then).
  await eventually(async () => (await admin('POST', `/applications/${applicationId}/decision`, { decision: 'accept', ...PAST_GATES })) !== 409, { timeoutMs: 30_000, what: 'the application to take a decision' });
  const talentId = await eventually(async () => (await waitForStatus(twin(), applicationId, 'accepted', 60_000)).talentId, { timeoutMs: 60_000, what: 'the accepted application to name its talent' });
  await admin('PATCH', `/talent/${talentId}`, { status: 'active' });
  // The talent approved their trained model (test/e2e/training.test.ts proves that part).
  await approvedModelConfig(twin(), talentId, marker);

  // The talent signs in: payouts are not set up.
  await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['talent'], name: `Noor ${marker}`, attributes: { 'custom:role': 'talent' } });
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await gotoApp(page, `${twin().urls.web}/sign-in?next=%2Ftalent-portal`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/talent-portal$/, { timeout: 30_000 });
  const card = page.getByTestId('payouts-card');
  await card.getByTestId('payouts-account').waitFor({ timeout: 20_000 });
  expect(await card.getByTestId('payouts-account').getAttribute('data-state')).toBe('not-started');
  expect(await card.getByTestId('payouts-state').textContent()).toBe('Not set up');
  expect(await card.getByTestId('payouts-minimum').textContent()).toContain('$10.00');
  expect(await seriousViolations(page, { include: '[data-testid="payouts-card"]' })).toEqual([]);
  await card.scrollIntoViewIfNeeded();
  await saveShots(page, 'payouts-not-set-up');

  // "Set up payouts" goes to Stripe's hosted onboarding (the emulator's page); by keyboard.
  await card.getByRole('button', { name: 'Set up payouts' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Get paid by Humanly' }).waitFor({ timeout: 30_000 });
  // Leaving half-way: Stripe still needs details; the portal says what and offers to continue.
  await page.getByLabel('First name').fill('Noor');
  await page.getByRole('button', { name: 'Save and finish later' }).click();
  await page.waitForURL(/\/talent-portal$/, { timeout: 30_000 });
  await card.locator('[data-testid="payouts-account"][data-state="onboarding"]').waitFor({ timeout: 20_000 });
  expect(await card.getByTestId('payouts-body').textContent()).toMatch(/^Stripe still needs .*your bank account/);
  await card.getByRole('button', { name: 'Continue setup' }).click();
  await page.getByRole('heading', { name: 'Get paid by Humanly' }).waitFor({ timeout: 30_000 });
  await page.getByLabel('First name').fill('Noor');
  await page.getByLabel('Last name').fill(marker);
  await page.getByLabel('Date of birth').fill('1990-04-12');
  await page.getByLabel('Last 4 digits of your Social Security number').fill('0000');
  await page.getByLabel('Routing number').fill('110000000');
  await page.getByLabel('Account number').fill('000123456789');
  await page.getByRole('button', { name: 'Agree and submit' }).click();
  // Back with ?payouts=return: the address is tidied and the card reads the account again.
  await page.waitForURL(/\/talent-portal$/, { timeout: 30_000 });
  await card.locator('[data-testid="payouts-account"][data-state="active"]').waitFor({ timeout: 30_000 });
  expect(await card.getByTestId('payouts-state').textContent()).toBe('Payouts active · bank account ending 6789');
  expect(await seriousViolations(page, { include: '[data-testid="payouts-card"]' })).toEqual([]);
  await saveShots(page, 'payouts-active');
  // An expired link sends the talent back with ?payouts=refresh: a new link, straight back to Stripe.
  await page.goto(`${twin().urls.web}/talent-portal?payouts=refresh`);
  await page.getByRole('heading', { name: 'Get paid by Humanly' }).waitFor({ timeout: 30_000 });
  await gotoApp(page, `${twin().urls.web}/talent-portal`);
  await card.locator('[data-testid="payouts-account"][data-state="active"]').waitFor({ timeout: 30_000 });

  // A client generates two images with the likeness.
  const client = await newClient(twin(), `brand.${marker}@people.example`);
  // Hidden again whatever happens: other files on the shared twin count the library's models.
  const generation = await generateAs(twin(), client, { talentId, prompt: `A cellist on a rooftop ${marker}`, style: 'Portrait', count: 2 }).finally(() => admin('PATCH', `/talent/${talentId}`, { status: 'hidden' }));
  expect(generation.status).toBe('succeeded');

  // The accruals move to last month as paid credits of $30.00, and last month closes as of the 1st.
  const now = new Date();
  const thisMonth = now.toISOString().slice(0, 7);
  const month = previousMonth(now.toISOString());
  const doc = documentClient(twin());
  const table = twin().physicalName('GenerationsTable');
  for (const [i, image] of generation.images.entries()) {
    const key = generationKeys.accrual(talentId, thisMonth, image.licenseId);
    const item = (await doc.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
    expect(item).toBeDefined();
    const { promotional: _promotional, ...paid } = item!;
    await doc.send(
      new PutCommand({ TableName: table, Item: { ...paid, ...generationKeys.accrual(talentId, month, image.licenseId), month, creditValueMicros: CREDIT_VALUE_MICROS, at: `${month}-28T12:0${i}:00.000Z` } }),
    );
    await doc.send(new DeleteCommand({ TableName: table, Key: key }));
  }
  // The platform's balance is too low for this talent's first transfer (a fault scoped to their account).
  const id = statementId(month, talentId);
  const client_ = await stripe();
  const account = (await client_.accounts.list({ limit: 100 })).data.find((a) => a.metadata?.talentId === talentId);
  expect(account).toBeDefined();
  await twin().stripe.inject({ kind: 'insufficient-balance', times: 1, destination: account!.id });
  await twin().events.runScheduled('MonthlyCloseSchedule', `${thisMonth}-01T01:00:00.000Z`);

  // The close publishes the month; the payout run's transfer fails: the portal says so and what happens next.
  const payout = card.locator(`[data-testid="statement-payout"][data-statement="${id}"]`);
  const portalShows = (state: string, what: string) =>
    eventually(
      async () => {
        await page.getByTestId('royalties').getByRole('button', { name: 'Refresh' }).click();
        return (await payout.getAttribute('data-state', { timeout: 5_000 }).catch(() => null)) === state;
      },
      { timeoutMs: 90_000, what },
    );
  await portalShows('failed', 'the portal to show the failed payout');
  expect(await payout.getByTestId('statement-payout-state').textContent()).toBe('Payout failed');
  expect(await payout.getByTestId('statement-payout-detail').textContent()).toContain('Once it is fixed, we pay $12.00 again; nothing is lost.');
  // The platform's balance is ours to fix: the talent reads that, not the console's instructions.
  expect(await payout.getByTestId('statement-payout-detail').textContent()).toContain('delayed on our side');
  expect(await payout.getByTestId('statement-payout-detail').textContent()).not.toContain('add funds');
  expect(await seriousViolations(page, { include: '[data-testid="payouts-card"]' })).toEqual([]);
  await saveShots(page, 'payouts-failed');
  expect((await client_.transfers.list({ transfer_group: transferGroupOf(month), limit: 100 })).data.filter((t) => t.metadata?.statementId === id)).toEqual([]);

  // The console: the month's run shows the failed row and the difference; paying outside Stripe needs a reference and a reason.
  const consolePage = await signInToConsole(browser(), twin(), twin().admin.email, twin().admin.password);
  await consolePage.getByRole('menuitem', { name: 'Payouts' }).waitFor({ timeout: 30_000 });
  await consolePage.goto(`${twin().urls.admin}/#/payout-runs?month=${month}`);
  const row = consolePage.locator(`[data-testid="payout-row"][data-statement="${id}"]`);
  await row.waitFor({ timeout: 30_000 });
  expect(await row.getAttribute('data-state')).toBe('failed');
  expect(await row.getByTestId('payout-note').textContent()).not.toBe('');
  await consolePage.getByTestId('reconciliation').waitFor();
  expect(await seriousViolations(consolePage, { afterLoading: true })).toEqual([]);
  await saveShots(consolePage, 'payouts-console-failed');
  await row.getByRole('button', { name: /^Mark paid outside Stripe/ }).click();
  const dialog = consolePage.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Mark paid' }).click();
  await dialog.getByText("Give the payment's reference.").waitFor();
  await dialog.getByText('Say why this talent is paid outside Stripe.').waitFor();
  expect(await seriousViolations(consolePage)).toEqual([]);
  await saveShots(consolePage, 'payouts-console-manual', { asIs: true });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });

  // Retry, once the balance is topped up (the fault is spent): one transfer, the row paid with its reference.
  await row.getByRole('button', { name: /^Retry/ }).click();
  await consolePage.locator(`[data-testid="payout-row"][data-statement="${id}"][data-state="paid"]`).waitFor({ timeout: 60_000 });
  const transfers = (await client_.transfers.list({ transfer_group: transferGroupOf(month), limit: 100 })).data.filter((t) => t.metadata?.statementId === id);
  expect(transfers).toHaveLength(1);
  const [transfer] = transfers;
  expect(transfer).toMatchObject({ amount: 1200, currency: 'usd', destination: account!.id, metadata: { statementId: id, talentId } });
  expect(await row.getByTestId('payout-reference').textContent()).toBe(transfer.id);
  expect(await consolePage.getByTestId('reconciliation').getAttribute('data-state')).toBe('balanced');
  await saveShots(consolePage, 'payouts-console');
  // On a phone the page keeps the screen's width: each payout is a block of its own.
  await consolePage.setViewportSize({ width: 390, height: 800 });
  await consolePage.locator(`li[data-testid="payout-row"][data-statement="${id}"][data-state="paid"]`).waitFor();
  expect(await consolePage.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  await consolePage.setViewportSize({ width: 1280, height: 900 });
  // A rerun asks first and pays nothing twice.
  await consolePage.getByRole('button', { name: 'Run payouts' }).click();
  await consolePage.getByRole('dialog').getByRole('button', { name: 'Run payouts' }).click();
  await consolePage.getByRole('dialog').waitFor({ state: 'detached', timeout: 60_000 });
  expect((await client_.transfers.list({ transfer_group: transferGroupOf(month), limit: 100 })).data.filter((t) => t.metadata?.statementId === id)).toHaveLength(1);
  // The talent's page in the console: their payout history, newest first.
  await consolePage.goto(`${twin().urls.admin}/#/talent/${encodeURIComponent(talentId)}`);
  const history = consolePage.getByTestId('payout-history');
  await history.waitFor({ timeout: 30_000 });
  expect(await history.textContent()).toMatch(/Payout account created at Stripe/);
  await consolePage.context().close();

  // The portal shows the statement's payout: Paid, the day and the transfer's reference.
  await portalShows('paid', 'the portal to show the statement paid');
  expect(await payout.getByTestId('statement-payout-state').textContent()).toBe('Paid');
  expect(await payout.getByTestId('statement-payout-detail').textContent()).toContain('$12.00 on ');
  expect(await payout.getByTestId('statement-payout-detail').textContent()).toContain(`reference ${transfer.id}`);
  // The statement itself says so too.
  const statement = page.getByTestId('royalties').locator(`[data-statement="${id}"]`);
  await statement.locator('summary').click();
  expect(await statement.getByTestId('statement-payout-detail').textContent()).toContain(transfer.id);
  // The year's earnings, as a file.
  const [download] = await Promise.all([page.waitForEvent('download'), card.getByTestId('earnings-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  expect(await seriousViolations(page, { include: '[data-testid="payouts-card"]' })).toEqual([]);
  await saveShots(page, 'payouts-paid');

  expect(errors).toEqual([]);
  await context.close();
});
