/**
 * Screenshots of every public route at 390 and 1280 pixels wide, for looking at the site as
 * people see it: `npm run screenshots` (after `npm run build`). PNGs go to screenshots/web/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTwin } from '../../infra/local/twin';
import { launchBrowser } from '../../test/support/browser';
import { ROUTE_META } from '../src/lib/seo';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'screenshots', 'web');
const EXTRA = ['/talent/maya-chen', '/talent/nobody-here', '/thank-you?type=waitlist', '/thank-you?type=founding-model', '/no/such/page'];
const WIDTHS = [390, 1280];

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const twin = await startTwin({ fast: true });
  const { browser, close } = await launchBrowser();
  try {
    const routes = [...new Set([...Object.keys(ROUTE_META), ...EXTRA])];
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 }, reducedMotion: 'reduce' });
      const page = await context.newPage();
      for (const route of routes) {
        await page.goto(`${twin.urls.web}${route}`);
        try {
          await page.locator('h1').first().waitFor({ state: 'attached', timeout: 10_000 });
        } catch {
          console.error(`${route} at ${width}px: no heading after 10 s; taking the screenshot anyway`);
          process.exitCode = 1;
        }
        await page.waitForLoadState('load');
        await page.waitForTimeout(400);
        const name = route === '/' ? 'home' : route.replace(/^\//, '').replace(/[/?=&]/g, '_');
        const file = path.join(OUT, `${name}-${width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.log(path.relative(process.cwd(), file));
      }
      await context.close();
    }
  } finally {
    await close();
    await twin.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
