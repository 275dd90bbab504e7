import type { Page } from 'playwright-core';
import { gotoApp, useBrowser } from '../support/browser';
import { itemsWithPrefix, useTwin } from '../support/twin';
import { confirmLatest, confirmationLink } from '../support/waitlist';

const twin = useTwin({ context: { waitlistCapacity: 2 } });
const browser = useBrowser();

async function openWaitlist(): Promise<{ page: Page; errors: string[] }> {
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await gotoApp(page, `${twin().urls.web}/first-200`);
  await page.getByRole('button', { name: 'Join the Waitlist' }).waitFor();
  return { page, errors };
}

describe('waitlist in the browser', () => {
  it('signs up from the form, is asked to confirm by email, follows the link, sees the place and receives the welcome email', async () => {
    const { page, errors } = await openWaitlist();
    // The honeypot is out of sight, out of the tab order and hidden from assistive technology.
    const honeypot = page.locator('input[name="website"]');
    expect(await honeypot.getAttribute('tabindex')).toBe('-1');
    expect(await honeypot.getAttribute('autocomplete')).toBe('off');
    expect(await page.locator('.signup-form__extra').getAttribute('aria-hidden')).toBe('true');
    const box = await honeypot.boundingBox();
    expect(box === null || box.x + box.width <= 0).toBe(true);

    await page.getByLabel('First name').fill('Rosa');
    await page.getByLabel('Email').fill('  Rosa.Creates@Example.com ');
    await page.getByLabel('I am a').selectOption('brand-company');
    await page.getByLabel('I agree to the Terms of Service and Privacy Policy').check();
    await page.getByRole('button', { name: 'Join the Waitlist' }).click();

    await page.waitForURL(/\/thank-you\?type=waitlist/);
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    expect(await page.getByTestId('waitlist-position').count()).toBe(0);
    const [pending] = await itemsWithPrefix(twin(), 'WaitlistTable', 'SIGNUP#rosa');
    expect(pending).toMatchObject({ status: 'pending', firstName: 'Rosa', signupType: 'brand-company', newsletter: true });

    // The link of the confirmation email, as the person would click it.
    const link = await confirmationLink(twin(), 'rosa.creates@example.com');
    await gotoApp(page, link);
    await page.getByRole('heading', { name: 'Welcome to the First 200!' }).waitFor();
    expect(await page.getByTestId('waitlist-position').textContent()).toContain('#1');
    expect(page.url()).not.toContain('confirm=');
    expect(await page.getByRole('link', { name: 'Apply as Founding Model' }).getAttribute('href')).toBe('/founding-talent-application');

    await twin().idle();
    const mail = (await twin().emails()).filter((m) => m.to.includes('rosa.creates@example.com'));
    expect(mail.map((m) => m.subject)).toEqual([expect.stringContaining('Confirm your place'), expect.stringContaining('#1')]);
    expect(mail[1].text).toContain('Hi Rosa');
    const [item] = await itemsWithPrefix(twin(), 'WaitlistTable', 'SIGNUP#rosa');
    expect(item).toMatchObject({ status: 'active', position: 1, firstName: 'Rosa', signupType: 'brand-company', newsletter: true });

    // The link again the same day (a reload, a second click) shows the same place and takes no other.
    const again = await browser().newPage();
    await gotoApp(again, link);
    expect(await again.getByTestId('waitlist-position').textContent()).toContain('#1');
    expect(await itemsWithPrefix(twin(), 'WaitlistTable', 'PLACE#')).toHaveLength(1);
    // A link that is not ours: an explanation and a way back.
    await gotoApp(again, link.replace(/#confirm=.*/, `#confirm=${'A'.repeat(43)}`));
    expect(await again.getByTestId('waitlist-confirm-error').textContent()).toMatch(/invalid, already used or expired/);
    expect(await again.getByRole('link', { name: 'Back to the waitlist' }).getAttribute('href')).toBe('/first-200#signup-form');
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
    expect((await confirmLatest(twin(), 'second@example.com')).json.position).toBe(2);
    await gotoApp(page, `${twin().urls.web}/first-200`);
    await fill('third@example.com');
    await page.getByTestId('toast-title').filter({ hasText: 'Waitlist Full' }).waitFor();
    expect(await page.getByText('The waitlist has reached capacity. Please check back later.').count()).toBeGreaterThan(0);
  }, 60_000);

  it('copies the share link and shows Copied! for 2 seconds', async () => {
    const context = await browser().newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    await gotoApp(page, `${twin().urls.web}/thank-you?type=waitlist`);
    await page.getByRole('button', { name: 'Copy Link' }).click();
    await page.getByTestId('toast-title').filter({ hasText: 'Copied!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${twin().urls.web}/first-200`);
    await page.getByRole('button', { name: 'Copy Link' }).waitFor({ timeout: 3000 });
    expect(await page.getByTestId('contact-email').textContent()).toContain('hello@humanly.example');
  }, 60_000);
});
