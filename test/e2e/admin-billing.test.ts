import type { Page } from 'playwright-core';
import { creditLedger } from '../../functions/accounts/credits';
import { accountStore } from '../../functions/accounts/store';
import { paymentsStore } from '../../functions/payments/store';
import { seedUser } from '../../infra/local/provision';
import { seriousViolations, saveShots } from '../support/a11y';
import { useBrowser } from '../support/browser';
import { eventually } from '../support/eventually';
import { fileMarker } from '../support/marker';
import { signInToConsole } from '../support/review-console';
import { callApi, documentClient, idToken, useTwin } from '../support/twin';

// The console's billing in Chromium on the twin: a Starter client bought a pack of 50 credits
// through Checkout and spent 40 (the Free 10 first, then 30 of the pack); the admin opens the
// client's page, sees the payment with its receipt, refunds it in the dialog, which shows
// Stripe's answer and says the credits follow Stripe's confirmation; once the refund's event lands
// the row shows the 20 credits taken back and the 30 already spent, and the account is flagged.
// The dashboard shows the revenue cards.
jest.setTimeout(300_000);
const twin = useTwin();
const browser = useBrowser();
const run = fileMarker('billing');
const PASSWORD = 'Str0ng!Passw0rd-billing';

const section = (page: Page, name: string) => page.getByRole('region', { name });

async function starterClientWithPack(email: string): Promise<{ id: string; paymentIntentId: string }> {
  const doc = documentClient(twin());
  const { sub } = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['client'], attributes: { 'custom:role': 'client' } });
  const id = sub!;
  await accountStore(doc, twin().physicalName('AccountsTable')).create({ id, email, full_name: 'Rae Refund', role: 'client' });
  const adminToken = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
  expect((await callApi(twin(), adminToken, 'PATCH', `/admin/users/${id}`, { plan: 'starter' })).status).toBe(200);
  const token = await idToken(twin(), email, PASSWORD, 'web');
  const checkout = await callApi(twin(), token, 'POST', '/me/checkout-sessions', { kind: 'credits', pack: 50, quantity: 1 });
  expect(checkout.status).toBe(201);
  const paid = await fetch(checkout.json.url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: 'Rae Refund', number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' }),
  });
  expect(paid.status).toBe(303);
  const payments = paymentsStore(doc, twin().physicalName('PaymentsTable'));
  const payment = await eventually(async () => (await payments.paymentsOf(id))[0], { what: 'the pack payment recorded', timeoutMs: 60_000 });
  // Spent as generations spend: reserved, then committed.
  const ledger = creditLedger(doc, twin().physicalName('AccountsTable'));
  await ledger.reserve(id, { credits: 40, key: `reserve:${run}`, generationId: `gen-${run}`, reason: 'Generation' });
  await ledger.commit(id, { credits: 40, key: `commit:${run}`, generationId: `gen-${run}`, reason: 'Generation' });
  return { id, paymentIntentId: payment.paymentIntentId };
}

describe("the console's billing", () => {
  it('shows a client’s payment, refunds it through the dialog, then the credits taken back and the flag', async () => {
    const email = `billing.${run}@people.example`;
    const { id, paymentIntentId } = await starterClientWithPack(email);
    const page = await signInToConsole(browser(), twin(), twin().admin.email, twin().admin.password);
    await page.getByRole('heading', { name: 'Review console' }).waitFor({ timeout: 30_000 });

    // The dashboard's money.
    await page.getByTestId('revenue-month-value').getByText(/^\$[\d,]+\.\d\d$/).waitFor({ timeout: 30_000 });
    await page.getByTestId('revenue-recurring-value').getByText(/a month$/).waitFor();
    expect(await seriousViolations(page, { afterLoading: true, include: '[data-testid="revenue-cards"]' })).toEqual([]);
    await saveShots(page, 'billing-dashboard');

    await page.goto(`${twin().urls.admin}#/users/${id}/show`);
    await page.getByRole('heading', { name: email, level: 1 }).waitFor({ timeout: 30_000 });
    const billing = section(page, 'Billing');
    const row = billing.getByTestId(`payment-${paymentIntentId}`);
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain('50 extra credits');
    expect(await row.textContent()).toContain('$20.00');
    await row.getByText('Paid', { exact: true }).waitFor();
    expect(await row.getByRole('link', { name: 'Receipt' }).getAttribute('href')).toMatch(/^https?:\/\//);
    await page.getByTestId('credit-balance').getByText('20', { exact: true }).waitFor();
    expect(await seriousViolations(page, { afterLoading: true })).toEqual([]);
    await saveShots(page, 'billing-user');

    // The dialog: the refund waits for a reason; an amount above the payment is refused on the spot.
    await row.getByRole('button', { name: 'Refund 50 extra credits' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund 50 extra credits' });
    const confirm = dialog.getByRole('button', { name: /^Refund/ });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Amount in dollars (optional)' }).fill('25');
    await dialog.getByText('At most $20.00.').waitFor();
    await dialog.getByRole('textbox', { name: 'Amount in dollars (optional)' }).fill('');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Client asked within a week');
    expect(await confirm.textContent()).toBe('Refund $20.00');
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'billing-refund-dialog', { asIs: true });
    await confirm.click();
    const done = dialog.getByRole('status');
    await done.waitFor({ timeout: 30_000 });
    expect(await done.textContent()).toContain('Refunded $20 through Stripe. The credits it bought are taken back when Stripe confirms the refund.');
    await saveShots(page, 'billing-refund-done', { asIs: true });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Once Stripe's event has landed (the page reads again): 20 taken back, 30 already spent, the flag.
    await eventually(
      async () => {
        await page.reload();
        await page.getByTestId(`payment-${paymentIntentId}`).getByText('Refunded', { exact: true }).waitFor({ timeout: 10_000 });
        return (await page.getByTestId(`payment-${paymentIntentId}`).getByText('30 already spent').count()) > 0 ? true : undefined;
      },
      { what: 'the refund applied in the console', timeoutMs: 60_000 },
    );
    expect(await page.getByTestId(`payment-${paymentIntentId}`).textContent()).toContain(`$20.00 by ${twin().admin.email}`);
    await page.getByTestId('refund-flag').getByText('Spent refunded credits: 30').waitFor({ timeout: 30_000 });
    await page.getByTestId('billing-flag').waitFor();
    await page.getByTestId('credit-balance').getByText('0', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Refund 50 extra credits' }).count()).toBe(0);
    expect(await seriousViolations(page, { afterLoading: true })).toEqual([]);
    await saveShots(page, 'billing-user-refunded');
  });
});
