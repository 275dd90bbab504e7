import type { Page } from 'playwright-core';
import { gotoApp, useBrowser } from '../support/browser';
import { useTwin } from '../support/twin';
import { eventually } from '../support/eventually';

/** Every public route of the route table renders its key texts (docs/product.md#routes). */
const twin = useTwin();
const browser = useBrowser();

async function open(
  path: string,
  options: { reducedMotion?: 'reduce' | 'no-preference'; clock?: boolean } = {},
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: options.reducedMotion ?? 'no-preference' });
  // A page's timers on a fake clock: the test moves time on instead of sleeping.
  if (options.clock) await context.clock.install();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await gotoApp(page, `${twin().urls.web}${path}`);
  await page.locator('h1').first().waitFor();
  if (options.clock) await pauseSoon(page);
  return { page, errors };
}

/**
 * Pauses the page's clock a moment ahead of its time. The clock runs on while the call travels,
 * so on a busy machine a moment can pass first ("cannot fast-forward to the past"): then again.
 */
async function pauseSoon(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 20 * attempt);
      return;
    } catch (err) {
      if (attempt >= 5 || !/past/.test((err as Error).message)) throw err;
    }
  }
}

const ROUTES: Array<[string, Array<string | RegExp>]> = [
  ['/', ['It begins with', 'Launching 2026', 'Join as Creator', 'Join as Talent', '© 2025 Humanly']],
  ['/home-preview', ['Apply as Talent', 'Train the AI', 'Create with Confidence', 'Earn Royalties', 'Maya Chen', '© 2024 Humanly']],
  ['/portal', ['Client Portal', 'Talent Portal']],
  // Signed out, a portal asks to sign in first (docs/product.md#sign-in).
  ['/client-portal', ['Forgot password?']],
  ['/talent-portal', ['Forgot password?']],
  ['/sign-in', ['Sign in', 'Forgot password?', 'Create an account']],
  ['/sign-up', ['Create an account', 'I am joining as', 'At least 10 characters']],
  ['/confirm-sign-up?email=someone%40example.com', ['Confirm your email', 'Resend code']],
  ['/reset-password', ['Reset your password', 'Send the code']],
  // The shared twin's catalog holds the seed talents and any another file approves meanwhile
  // (test/e2e/talent.test.ts counts them on a twin of its own).
  ['/talent', [/Showing \d+ of \d+ models/]],
  ['/talent/maya-chen', ['Maya Chen', 'Freeze This Likeness']],
  ['/create', ['Create Ethical Content']],
  ['/ethos', ['Why Humanly Exists']],
  ['/talent-application', ['Apply Now', 'What Happens Next', '20%', '25%', '30%']],
  ['/training-image-best-practices', ['Training Image Best Practices', '30']],
  ['/training-image-best-practices-founders', ['Training Image Best Practices for Founding Talent']],
  ['/pricing', ['Free', 'Starter', 'Pro', 'Enterprise', '$35', '$109', '$269', 'Most popular']],
  ['/privacy', ['Privacy Policy', 'Last updated October 2024']],
  ['/terms', ['Terms of Service', 'Last updated October 2024']],
  ['/contact', ['Contact us', 'within 24 hours', 'Send Message']],
  ['/report', ['Report an image', 'What is wrong?', 'Intimate or sexual content', 'Where is it?', 'Send report']],
  ['/first-200', ['Join the Waitlist', 'What happens next']],
  ['/founding-talent-application', ['Founding Talent', 'Apply now', 'Learn more', '35% lifetime royalties', 'Transparent terms', 'Founding member community', 'Review in 15-20 business days', 'What Happens Next', 'Review within 3 weeks', 'Submit Application']],
  ['/founding-talent-contact', ['Contact us', 'Send Message']],
  ['/founding-talent-privacy', ['Privacy Policy', 'Last updated October 2024']],
  ['/founding-talent-terms', ['Terms of Service', 'Last updated October 2024']],
  ['/pre-launch-contact', ['Contact us', 'Back to the waitlist']],
  ['/pre-launch-privacy', ['Privacy Policy', 'Last updated December 2024', 'Back to the waitlist']],
  ['/pre-launch-terms', ['Terms of Service', 'Last updated December 2024']],
  ['/thank-you?type=waitlist', ['Apply as Founding Model', 'Copy Link']],
  ['/thank-you?type=founding-model', ['Thank You for Applying', 'Copy Link']],
  ['/thank-you', ['Oops! Page not found', 'Return to Home']],
  ['/no/such/page', ['Oops! Page not found', 'Return to Home']],
];

describe('routes', () => {
  // One page for every route (a new context each is most of a route's time): each test goes to
  // its route afresh and reads only the errors of its own visit.
  let page: Page;
  const errors: string[] = [];
  beforeAll(async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });

  it.each(ROUTES.map(([path, texts]) => ({ path, texts })))('$path shows its key texts and a title', async ({ path, texts }) => {
    errors.length = 0;
    await gotoApp(page, `${twin().urls.web}${path}`);
    await page.locator('h1').first().waitFor();
    // Data-driven pages (the talent library) fill in after the API answers.
    for (const text of texts) await page.getByText(text).first().waitFor({ state: 'attached', timeout: 10_000 });
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.title()).toMatch(/Humanly/);
    expect(errors).toEqual([]);
  }, 30_000);
});

describe('behaviour', () => {
  /**
   * On the page's fake clock: moves time on until the element's text changes (at most `periodMs`
   * and a step more), then checks the next change comes `periodMs` later, within one step.
   */
  async function expectChangesEvery(page: Page, selector: string, periodMs: number): Promise<void> {
    const STEP = 100;
    const text = () => page.locator(selector).first().textContent();
    const first = await text();
    let moved = 0;
    while ((await text()) === first) {
      if (moved > periodMs + STEP) throw new Error(`${selector} did not change within ${moved} ms`);
      await page.clock.runFor(STEP);
      moved += STEP;
    }
    const second = await text();
    await page.clock.runFor(periodMs - 2 * STEP);
    expect(await text()).toBe(second);
    await page.clock.runFor(3 * STEP);
    expect(await text()).not.toBe(second);
  }

  it('rotates the pre-launch words every 2.5 s and the home hero word every 3.5 s', async () => {
    const landing = await open('/', { clock: true });
    await expectChangesEvery(landing.page, '[data-testid="rotating-word"]', 2500);
    const home = await open('/home-preview', { clock: true });
    await expectChangesEvery(home.page, 'h1 [data-testid="rotating-word"]', 3500);
  }, 40_000);

  it('holds the words still for people who prefer reduced motion', async () => {
    const { page } = await open('/', { reducedMotion: 'reduce', clock: true });
    const before = await page.getByTestId('rotating-word').textContent();
    await page.clock.runFor(3000);
    expect(await page.getByTestId('rotating-word').textContent()).toBe(before);
  }, 20_000);

  it('advances the home carousel every 3.5 s and pauses while hovered', async () => {
    const { page } = await open('/home-preview', { clock: true });
    const active = () => page.locator('[data-testid="carousel-slide"][data-active="true"]').getAttribute('aria-label');
    const first = await active();
    await page.clock.runFor(3800);
    const second = await active();
    expect(second).not.toBe(first);
    await page.locator('[aria-roledescription="carousel"]').hover();
    await page.clock.runFor(4000);
    expect(await active()).toBe(second);
  }, 30_000);

  it('scrolls smoothly to the element named in the URL hash', async () => {
    const { page } = await open('/first-200#signup-form');
    await page.waitForFunction(() => {
      const form = document.getElementById('signup-form');
      return !!form && Math.abs(form.getBoundingClientRect().top) < 200;
    }, undefined, { timeout: 5000 });
  }, 20_000);

  it('scrolls to the top on a route change', async () => {
    const { page } = await open('/pricing');
    await page.evaluate(() => window.scrollTo(0, 2000));
    await page.waitForFunction(() => window.scrollY > 500);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact' }).click();
    await page.waitForURL(/\/contact$/);
    await page.waitForFunction(() => window.scrollY === 0, undefined, { timeout: 5000 });
  }, 20_000);

  it('opens the mobile menu with the short labels', async () => {
    const context = await browser().newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await gotoApp(page, `${twin().urls.web}/home-preview`);
    const button = page.getByTestId('mobile-menu-button');
    // The prerendered button works once the app has hydrated: clicked until the menu opens.
    await eventually(
      async () => {
        await button.click();
        return page.locator('[data-testid="mobile-menu-button"][aria-expanded="true"]').waitFor({ timeout: 1_000 }).then(
          () => true,
          () => false,
        );
      },
      { timeoutMs: 20_000, what: 'the mobile menu to open' },
    );
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    const menu = page.getByTestId('mobile-menu');
    for (const label of ['Our Why', 'Talent', 'Join', 'Create']) await menu.getByRole('link', { name: label, exact: true }).waitFor();
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('mobile-menu-button').getAttribute('aria-expanded')).toBe('false');
  }, 20_000);

  it('serves prerendered HTML with the page content, meta description and social card', async () => {
    for (const path of ['/first-200', '/pricing', '/ethos']) {
      const html = await (await fetch(`${twin().urls.web}${path}`)).text();
      expect(html).toMatch(/<h1[\s>]/);
      expect(html).toMatch(/<meta name="description" content="[^"]{20,}"/);
      expect(html).toMatch(/<meta property="og:image" content="[^"]+\.png"/);
    }
    const sitemap = await (await fetch(`${twin().urls.web}/sitemap.xml`)).text();
    expect(sitemap).toContain('/first-200</loc>');
    expect(await (await fetch(`${twin().urls.web}/robots.txt`)).text()).toMatch(/Sitemap:/);
  }, 20_000);
});
