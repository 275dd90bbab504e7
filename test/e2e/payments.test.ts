import type { Page } from 'playwright-core';
import { UPGRADE_FIRST_MESSAGE } from '../../events/payment-values';
import { formatUsd, planById } from '../../events/plans';
import { gotoApp, onOwnNetwork, useBrowser } from '../support/browser';
import { latestCognitoCode } from '../support/cognito-mail';
import { eventually } from '../support/eventually';
import { useTwin } from '../support/twin';
import { seriousViolations, saveShots } from '../support/a11y';
import { fileMarker } from '../support/marker';

// Paying in Chromium on the twin (docs/product.md#pricing, #client-portal): a visitor chooses
// Starter on /pricing, signs up and comes back to the same choice, pays with 4242 on the Stripe
// emulator's hosted page and returns to the portal, which waits for the payment to be confirmed
// and then shows Starter with its credits; the client generates, buys a pack, meets a declined
// card that changes nothing, and cancels at period end in the billing portal. A talent is told
// that plans are for clients. With SHOTS=<dir>, the pages are saved at 390 and 1280 px.
jest.setTimeout(240_000);
const twin = useTwin();
const marker = fileMarker('pay');
const PASSWORD = 'Paying-Passw0rd!';
const PROMPT = 'Reading a book in a sunny cafe, smiling';

const browser = useBrowser();

/** Signs up on the open sign-up page (its role preselected or chosen) and confirms with the emailed code. */
async function signUp(page: Page, email: string, fullName: string, role?: 'client' | 'talent'): Promise<void> {
  await page.getByLabel('Full name').waitFor({ timeout: 20_000 });
  if (role) await page.getByTestId(`role-${role}`).click();
  await page.getByLabel('Full name').fill(fullName);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByLabel('Code').waitFor({ timeout: 20_000 });
  await page.getByLabel('Code').fill(await latestCognitoCode(twin(), email));
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
}

/** Types a test card on the emulator's hosted checkout page and submits it, as a person would. */
async function payWithCard(page: Page, card: string, email: string): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(`${twin().urls.stripe}/c/pay/`), { timeout: 30_000 });
  const address = page.getByLabel('Email');
  if (await address.isEditable()) await address.fill(email);
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Paula Payer');
  await page.getByRole('button', { name: /^(Subscribe|Pay )/ }).click();
}

/** Records every text the checkout's live region shows, from the page's first render on. */
async function recordCheckoutStatus(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { checkoutTexts: string[] }).checkoutTexts = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="checkout-status"]')?.textContent?.trim();
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

const checkoutTexts = (page: Page) => page.evaluate(() => (window as unknown as { checkoutTexts?: string[] }).checkoutTexts ?? []);
const balance = async (page: Page) => Number((await page.getByTestId('balance-number').textContent())?.replace(/,/g, ''));

describe('payments', () => {
  it('a visitor chooses Starter, signs up, pays, generates, buys a pack, meets a declined card and cancels at period end', async () => {
    const email = `payer.${marker}@people.example`;
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    await onOwnNetwork(context, twin().urls.cognito);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await recordCheckoutStatus(page);
    const web = twin().urls.web;
    const starter = planById('starter');

    // /pricing, signed out: Starter leads through sign-up as a client and back to the same choice.
    await gotoApp(page, `${web}/pricing`);
    expect(await page.getByTestId('plan-free').getByRole('link', { name: 'Start free' }).getAttribute('href')).toBe('/sign-up?role=client');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('plan-starter').getByRole('link', { name: 'Choose Starter' }).click();
    await page.waitForURL(/\/sign-up\?role=client&next=%2Fcheckout%3Fplan%3Dstarter$/);
    expect(await page.getByTestId('role-client').getByRole('radio').isChecked()).toBe(true);
    await signUp(page, email, 'Paula Payer');

    // Back on the choice: Stripe's hosted page for Starter; 4242 pays.
    await page.waitForURL((url) => url.href.startsWith(`${twin().urls.stripe}/c/pay/`), { timeout: 30_000 });
    await page.getByRole('heading', { level: 1, name: /Starter/ }).waitFor();
    await payWithCard(page, '4242 4242 4242 4242', email);

    // The portal waits for the verified event, then shows Starter, its renewal and the credits.
    await page.waitForURL(/\/client-portal\?checkout=cs_/, { timeout: 30_000 });
    const status = page.getByTestId('checkout-status');
    await status.filter({ hasText: `Payment confirmed: you are on Starter. ${starter.monthlyCredits} credits were added to your balance.` }).waitFor({ timeout: 60_000 });
    expect((await checkoutTexts(page))[0]).toMatch(/^Your payment is being confirmed/);
    await page.waitForURL(/\/client-portal$/);
    await page.getByTestId('plan-name').filter({ hasText: 'Starter' }).waitFor();
    expect(await balance(page)).toBe(10 + starter.monthlyCredits);
    await page.getByTestId('subscription-label').filter({ hasText: 'Active' }).waitFor();
    const renews = (await page.getByTestId('subscription-body').textContent())?.match(/^Renews on (.+)\.$/)?.[1];
    expect(renews).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    const ledgerReasons = page.getByTestId('ledger-entry');
    await ledgerReasons.nth(1).waitFor();
    expect(await ledgerReasons.first().getByTestId('ledger-change').textContent()).toBe(`+${starter.monthlyCredits}`);
    expect(await ledgerReasons.first().getByTestId('ledger-expires').textContent()).toMatch(/^Expires [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await page.getByRole('button', { name: 'Manage billing' }).waitFor();
    expect(await page.getByTestId('plan-card').getByRole('button', { name: /^Upgrade to Pro/ }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'client-portal-starter');

    // Generates one image with the plan's credits.
    await gotoApp(page, `${web}/create?talent=maya-chen`);
    await page.getByTestId('create-balance').filter({ hasText: String(10 + starter.monthlyCredits) }).waitFor({ timeout: 20_000 });
    await page.getByLabel('Prompt').fill(PROMPT);
    await page.getByRole('radio', { name: '1', exact: true }).check();
    await page.getByTestId('generate').click();
    await page.getByTestId('create-result').first().waitFor({ timeout: 60_000 });
    const afterImage = 10 + starter.monthlyCredits - 1;
    await page.getByTestId('create-balance').filter({ hasText: new RegExp(`^${afterImage}$`) }).waitFor({ timeout: 15_000 });

    // Buys 2 packs of 100 credits at Starter's price; the pack is chosen by keyboard.
    await gotoApp(page, `${web}/client-portal`);
    const buy = page.getByTestId('buy-credits');
    await buy.getByRole('radio', { name: /^100 credits/ }).waitFor({ timeout: 20_000 });
    expect(await buy.getByRole('radio', { name: /^100 credits/ }).isChecked()).toBe(true);
    await buy.getByRole('radio', { name: /^100 credits/ }).focus();
    await page.keyboard.press('ArrowLeft');
    expect(await buy.getByRole('radio', { name: /^50 credits/ }).isChecked()).toBe(true);
    await page.keyboard.press('ArrowRight');
    await buy.getByLabel('Quantity').selectOption('2');
    expect(await buy.getByTestId('buy-credits-total').textContent()).toContain(formatUsd(200 * starter.extraCreditCents!));
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'client-portal-buy-credits');
    await buy.getByRole('button', { name: 'Buy 200 credits' }).click();
    await payWithCard(page, '4242 4242 4242 4242', email);
    await page.waitForURL(/\/client-portal\?checkout=cs_/, { timeout: 30_000 });
    await status.filter({ hasText: 'Payment confirmed: 200 credits were added to your balance.' }).waitFor({ timeout: 60_000 });
    await page.getByTestId('balance-number').filter({ hasText: String(afterImage + 200) }).waitFor();
    await saveShots(page, 'client-portal-credits-added');

    // A declined card: Stripe's page says so; giving up there changes nothing.
    const entriesBefore = await page.getByTestId('ledger-entry').count();
    await buy.getByRole('radio', { name: /^50 credits/ }).check();
    await buy.getByLabel('Quantity').selectOption('1');
    await buy.getByRole('button', { name: 'Buy 50 credits' }).click();
    await payWithCard(page, '4000 0000 0000 0002', email);
    await page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor({ timeout: 20_000 });
    await page.getByRole('link', { name: 'Cancel and return to Humanly' }).click();
    await page.waitForURL(/\/client-portal\?checkout=cancelled$/, { timeout: 30_000 });
    await page.getByTestId('checkout-cancelled').filter({ hasText: 'Checkout cancelled: nothing was charged.' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('ledger-entry').nth(entriesBefore - 1).waitFor();
    expect(await balance(page)).toBe(afterImage + 200);
    expect(await page.getByTestId('ledger-entry').count()).toBe(entriesBefore);

    // The billing portal cancels at period end; back in the portal the plan says when it ends.
    await gotoApp(page, `${web}/client-portal`);
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${twin().urls.stripe}/p/`), { timeout: 30_000 });
    await page.getByRole('button', { name: 'Cancel plan' }).click();
    await page.getByText('Your plan ends on').waitFor({ timeout: 20_000 });
    await page.getByRole('link', { name: '← Return to Humanly' }).click();
    await page.waitForURL(/\/client-portal$/, { timeout: 30_000 });
    const label = page.getByTestId('subscription-label');
    await eventually(
      async () => {
        await page.reload();
        await page.getByTestId('plan-name').waitFor({ timeout: 20_000 });
        await label.waitFor({ timeout: 20_000 });
        return (await label.textContent()) === `Cancels on ${renews}`;
      },
      { timeoutMs: 60_000, what: `the plan card to say "Cancels on ${renews}"` },
    );
    expect(await page.getByTestId('plan-name').textContent()).toBe('Starter');
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'client-portal-canceling');

    // The payment-failed email's link opens the billing portal from the client portal.
    await gotoApp(page, `${web}/client-portal?billing=portal`);
    await page.waitForURL((url) => url.href.startsWith(`${twin().urls.stripe}/p/`), { timeout: 30_000 });
    await page.getByText('Your plan ends on').waitFor({ timeout: 20_000 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a Free client is asked to upgrade before buying credits; a talent is told plans are for clients; a cancelled checkout says nothing was charged', async () => {
    const context = await browser().newContext({ viewport: { width: 390, height: 844 } });
    await onOwnNetwork(context, twin().urls.cognito);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const web = twin().urls.web;

    await gotoApp(page, `${web}/pricing?checkout=cancelled`);
    await page.getByTestId('checkout-cancelled').filter({ hasText: 'Checkout cancelled: nothing was charged.' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'pricing-cancelled');

    // A talent signing up on the way to a plan lands on the choice, which says plans are for clients.
    await gotoApp(page, `${web}/sign-up?next=${encodeURIComponent('/checkout?plan=pro')}`);
    await signUp(page, `talent.${marker}@people.example`, 'Tara Talent', 'talent');
    await page.waitForURL(/\/checkout\?plan=pro$/, { timeout: 30_000 });
    await page.getByTestId('checkout-not-client').getByRole('heading', { name: 'Plans are for client accounts' }).waitFor({ timeout: 20_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'checkout-talent');
    await context.clearCookies();
    await page.evaluate(() => window.localStorage.clear());

    // A Free client: the plan card offers the paid plans; buying credits asks to upgrade first.
    await gotoApp(page, `${web}/sign-up?role=client`);
    await signUp(page, `free.${marker}@people.example`, 'Fred Free');
    await page.waitForURL(/\/client-portal$/, { timeout: 30_000 });
    await page.getByTestId('plan-name').filter({ hasText: 'Free' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('upgrade-first').filter({ hasText: UPGRADE_FIRST_MESSAGE }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('buy-credits').getByRole('button').count()).toBe(0);
    const choices = page.getByTestId('plan-card').getByRole('button', { name: /^Subscribe to / });
    expect(await choices.count()).toBe(3);
    expect(await page.getByRole('button', { name: 'Manage billing' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'client-portal-free');
    expect(errors).toEqual([]);
    await context.close();
  });
});
