import { gotoApp, useBrowser } from '../support/browser';
import { useTwin } from '../support/twin';
import { seriousViolations } from '../support/a11y';

/**
 * Crawls the public site from its entry pages: every internal link must lead to a page that
 * renders (not the 404), and axe must find no serious or critical violation on any page.
 */
const twin = useTwin();
const browser = useBrowser();

const ENTRY = ['/', '/home-preview', '/first-200', '/founding-talent-application', '/talent', '/thank-you?type=waitlist', '/thank-you?type=founding-model'];

it('has no dead internal link and no serious accessibility violation on any page it reaches', async () => {
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const seen = new Set<string>();
  const queue = [...ENTRY];
  const dead: string[] = [];
  const violations: string[] = [];
  const linkedFrom = new Map<string, string>();
  while (queue.length) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    await gotoApp(page, `${twin().urls.web}${path}`);
    await page.locator('h1').first().waitFor({ timeout: 10_000 });
    // Let data-driven pages settle (the talent library loads from the API).
    await page.waitForLoadState('load');
    if (path === '/talent') await page.getByText(/Showing \d+ of \d+ models/).waitFor();
    await page.waitForTimeout(300);
    if (await page.getByText('Oops! Page not found').count()) dead.push(`${path} (linked from ${linkedFrom.get(path) ?? 'entry'})`);
    for (const v of await seriousViolations(page)) violations.push(`${path}: ${v}`);
    const hrefs = await page.$$eval('a[href]', (as) => as.map((a) => a.getAttribute('href') ?? ''));
    for (const href of hrefs) {
      if (!href.startsWith('/') || href.startsWith('//')) continue;
      const target = href.split('#')[0] || '/';
      if (!seen.has(target) && !queue.includes(target)) {
        queue.push(target);
        linkedFrom.set(target, path);
      }
    }
  }
  expect(dead).toEqual([]);
  expect(violations).toEqual([]);
  expect(seen.size).toBeGreaterThan(ENTRY.length);
}, 300_000);
