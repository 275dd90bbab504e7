import type { Browser, Page } from 'playwright-core';
import { gotoApp, launchBrowser } from '../support/browser';
import { itemsWithPrefix, useTwin } from '../support/twin';

const twin = useTwin({ context: { waitlistCapacity: 2 } });
let browser: Browser;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ browser, close } = await launchBrowser());
}, 60_000);
afterAll(async () => close?.(), 30_000);

async function openWaitlist(): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await gotoApp(page, `${twin().urls.web}/first-200`);
  await page.getByRole('button', { name: 'Join the Waitlist' }).waitFor();
  return { page, errors };
}

describe('waitlist in the browser', () => {
  it('signs up from the form, lands on the thank-you page and receives the welcome email', async () => {
    const { page, errors } = await openWaitlist();
    await page.getByLabel('First name').fill('Rosa');
    await page.getByLabel('Email').fill('  Rosa.Creates@Example.com ');
    await page.getByLabel('I am a').selectOption('brand-company');
    await page.getByLabel('I agree to the Terms of Service and Privacy Policy').check();
    await page.getByRole('button', { name: 'Join the Waitlist' }).click();

    await page.waitForURL(/\/thank-you\?type=waitlist/);
    await page.getByRole('heading', { name: 'Welcome to the First 200!' }).waitFor();
    expect(await page.getByTestId('waitlist-position').textContent()).toContain('#1');
    expect(await page.getByRole('link', { name: 'Apply as Founding Model' }).getAttribute('href')).toBe('/founding-talent-application');

    await twin().idle();
    const mail = (await twin().emails()).filter((m) => m.to.includes('rosa.creates@example.com'));
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain('Hi Rosa');
    const [item] = await itemsWithPrefix(twin(), 'WaitlistTable', 'SIGNUP#rosa');
    expect(item).toMatchObject({ firstName: 'Rosa', signupType: 'brand-company', newsletter: true });
    expect(errors).toEqual([]);
  }, 60_000);

  it('shows the validation toasts and sends nothing when the email or terms are missing', async () => {
    const { page } = await openWaitlist();
    await page.getByRole('button', { name: 'Join the Waitlist' }).click();
    await page.getByTestId('toast-title').filter({ hasText: 'Email required' }).waitFor();
    expect(await page.getByText('Please enter your email address').count()).toBeGreaterThan(0);

    await page.getByLabel('Email').fill('no.terms@example.com');
    await page.getByRole('button', { name: 'Join the Waitlist' }).click();
    await page.getByTestId('toast-title').filter({ hasText: 'Terms required' }).waitFor();
    expect(page.url()).toContain('/first-200');
    expect(await itemsWithPrefix(twin(), 'WaitlistTable', 'SIGNUP#no.terms')).toHaveLength(0);
  }, 60_000);

  it('tells the person when the waitlist is full', async () => {
    const { page } = await openWaitlist();
    const fill = async (email: string) => {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('I agree to the Terms of Service and Privacy Policy').check();
      await page.getByRole('button', { name: 'Join the Waitlist' }).click();
    };
    await fill('second@example.com'); // capacity 2: Rosa took the first place
    await page.waitForURL(/\/thank-you/);
    await gotoApp(page, `${twin().urls.web}/first-200`);
    await fill('third@example.com');
    await page.getByTestId('toast-title').filter({ hasText: 'Waitlist Full' }).waitFor();
    expect(await page.getByText('The waitlist has reached capacity. Please check back later.').count()).toBeGreaterThan(0);
  }, 60_000);

  it('copies the share link and shows Copied! for 2 seconds', async () => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    await gotoApp(page, `${twin().urls.web}/thank-you?type=waitlist`);
    await page.getByRole('button', { name: 'Copy Link' }).click();
    await page.getByTestId('toast-title').filter({ hasText: 'Copied!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${twin().urls.web}/first-200`);
    await page.getByRole('button', { name: 'Copy Link' }).waitFor({ timeout: 3000 });
    expect(await page.getByTestId('contact-email').textContent()).toContain('hello@humanly.example');
  }, 60_000);
});
