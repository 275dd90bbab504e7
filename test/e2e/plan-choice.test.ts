import { ConfirmSignUpCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { BrowserContext, Page } from 'playwright-core';
import { PLAN_CHANGE_RULE } from '../../events/plans';
import { gotoApp, useBrowser } from '../support/browser';
import { latestCognitoCode } from '../support/cognito-mail';
import { cognitoClient, useTwin, type TestTwin } from '../support/twin';
import { saveShots, seriousViolations } from '../support/a11y';
import { fileMarker } from '../support/marker';

// A plan's button on /pricing before and after the page's script runs (docs/product.md#choosing-a-plan,
// #sign-in), in Chromium on the twin. The prerendered link leads through /sign-up?next=/checkout?plan=…,
// which sends a signed-in client straight on to Stripe's checkout without showing the sign-up form
// (replacing itself in history); a `next` of another site is never followed. With SHOTS=<dir>, the
// pages are saved at 390 and 1280 px.
jest.setTimeout(120_000);
const twin = useTwin();
const marker = fileMarker('plan');
const PASSWORD = 'Choosing-Passw0rd!';
const STARTER_LINK = `/sign-up?role=client&next=${encodeURIComponent('/checkout?plan=starter')}`;

const browser = useBrowser();

/** A confirmed client account, made through Cognito's API as the sign-up page would. */
async function clientAccount(twin: TestTwin, email: string): Promise<void> {
  const cognito = cognitoClient(twin);
  try {
    await cognito.send(
      new SignUpCommand({
        ClientId: twin.clientIds.web,
        Username: email,
        Password: PASSWORD,
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'name', Value: 'Casey Chooser' },
          { Name: 'custom:role', Value: 'client' },
        ],
      }),
    );
    const code = await latestCognitoCode(twin, email);
    await cognito.send(new ConfirmSignUpCommand({ ClientId: twin.clientIds.web, Username: email, ConfirmationCode: code }));
  } finally {
    cognito.destroy();
  }
}

/** A browser signed in as the client on the sign-in page; `formsSeen` counts every sign-up form that ever rendered. */
async function signedInClient(email: string): Promise<{ context: BrowserContext; page: Page; errors: string[]; formsSeen: () => number }> {
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  let forms = 0;
  await context.exposeFunction('sawSignUpForm', () => {
    forms += 1;
  });
  await context.addInitScript(() => {
    let shown = false;
    new MutationObserver(() => {
      const now = Boolean(document.querySelector('form[aria-label="Create an account"]'));
      if (now && !shown) void (window as unknown as { sawSignUpForm: () => Promise<void> }).sawSignUpForm();
      shown = now;
    }).observe(document, { subtree: true, childList: true });
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await gotoApp(page, `${twin().urls.web}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/client-portal$/, { timeout: 30_000 });
  await page.getByTestId('plan-name').waitFor({ timeout: 20_000 });
  return { context, page, errors, formsSeen: () => forms };
}

describe('choosing a plan', () => {
  it('the prerendered plan links lead through sign-up with next, and say how plan changes are billed', async () => {
    // No script at all: what a click before the page's script has run follows.
    const context = await browser().newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${twin().urls.web}/pricing`);
    const starter = page.getByTestId('plan-starter').getByRole('link', { name: 'Choose Starter' });
    expect(await starter.getAttribute('href')).toBe(STARTER_LINK);
    expect(await page.getByTestId('plan-pro').getByRole('link', { name: 'Choose Pro' }).getAttribute('href')).toBe(`/sign-up?role=client&next=${encodeURIComponent('/checkout?plan=pro')}`);
    expect(await page.getByTestId('plan-change-rule').innerText()).toBe(`Changing plans. ${PLAN_CHANGE_RULE}`);
    await context.close();
  });

  it('a signed-in client following that link goes straight to checkout, never seeing the sign-up form', async () => {
    const email = `chooser.${marker}@people.example`;
    await clientAccount(twin(), email);
    const { context, page, errors, formsSeen } = await signedInClient(email);
    const web = twin().urls.web;

    // After hydration the buttons lead a signed-in browser to checkout itself.
    await gotoApp(page, `${web}/pricing`);
    await page.getByTestId('plan-pro').locator('a[href="/checkout?plan=pro"]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'pricing-signed-in');

    // The prerendered link, as a click before the script ran follows it: on to Stripe for Starter.
    await page.goto(`${web}${STARTER_LINK}`);
    await page.waitForURL((url) => url.href.startsWith(`${twin().urls.stripe}/c/pay/`), { timeout: 30_000 });
    await page.getByRole('heading', { level: 1, name: /Starter/ }).waitFor();
    expect(formsSeen()).toBe(0);
    // /sign-up and /checkout replaced themselves: Back leaves Stripe for the page before them.
    await page.goBack();
    await page.waitForURL(/\/pricing$/, { timeout: 20_000 });

    // The same from /sign-in, and to any page of the site.
    await gotoApp(page, `${web}/sign-in?next=${encodeURIComponent('/create?talent=maya-chen')}`);
    await page.waitForURL(/\/create\?talent=maya-chen$/, { timeout: 20_000 });
    expect(await page.getByTestId('sign-in-page').count()).toBe(0);

    // A next of another site is never followed: they are told they are signed in, and Continue opens their portal.
    await gotoApp(page, `${web}/sign-up?next=${encodeURIComponent('//evil.example/checkout')}`);
    await page.getByTestId('signed-in-card').waitFor({ timeout: 20_000 });
    expect(page.url()).toBe(`${web}/sign-up?next=${encodeURIComponent('//evil.example/checkout')}`);
    expect(await page.getByTestId('sign-up-page').getByText(email).count()).toBe(1);
    expect(formsSeen()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'sign-up-signed-in');
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.waitForURL(/\/client-portal$/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
