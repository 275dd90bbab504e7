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

/** Pages checked at once: a page's time is mostly the twin's answers and axe, on two cores. */
const PARALLEL = 2;

it('has no dead internal link and no serious accessibility violation on any page it reaches', async () => {
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  const pages = await Promise.all(Array.from({ length: PARALLEL }, () => context.newPage()));
  const seen = new Set<string>();
  const queue = [...ENTRY];
  const dead: string[] = [];
  const violations: string[] = [];
  const linkedFrom = new Map<string, string>();

  /** Visits one page: whether it rendered, what axe finds, and every internal link it has, queued. */
  async function visit(page: (typeof pages)[number], path: string): Promise<void> {
    await gotoApp(page, `${twin().urls.web}${path}`);
    await page.locator('h1').first().waitFor({ timeout: 10_000 });
    // Let data-driven pages settle (the talent library loads from the API).
    await page.waitForLoadState('load');
    if (path === '/talent') await page.getByText(/Showing \d+ of \d+ models/).waitFor();
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

  while (queue.length) {
    // The next few unseen paths, visited side by side; the links they add make the next round.
    const round: string[] = [];
    while (queue.length && round.length < PARALLEL) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      round.push(path);
    }
    await Promise.all(round.map((path, i) => visit(pages[i], path)));
  }
  expect(dead).toEqual([]);
  expect(violations).toEqual([]);
  expect(seen.size).toBeGreaterThan(ENTRY.length);
}, 300_000);
