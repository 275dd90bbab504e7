import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the browsers a test file launched are kept for its environment (test/support/e2e-environment.ts). */
export const OPEN_BROWSERS = '__openBrowsers';

function openBrowsers(): Set<Browser> {
  const registry = globalThis as unknown as Record<string, Set<Browser> | undefined>;
  return (registry[OPEN_BROWSERS] ??= new Set());
}

/**
 * Debian's Chromium, headless, with the flags this machine's closed network needs.
 * Playwright gives every launch a new empty profile of its own.
 */
export async function launchBrowser(extraArgs: string[] = []): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      ...extraArgs,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  openBrowsers().add(browser);
  return {
    browser,
    close: async () => {
      openBrowsers().delete(browser);
      await browser.close();
    },
  };
}

/**
 * One browser for a test file, as useTwin gives one twin: launched before the file's tests and
 * closed after them. Call it at the top of the file; the getter answers the open browser.
 */
export function useBrowser(options: { args?: () => Promise<string[]> } = {}): () => Browser {
  let opened: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  beforeAll(async () => {
    opened = await launchBrowser(options.args ? await options.args() : []);
  }, 60_000);
  afterAll(async () => opened?.close(), 30_000);
  return () => {
    if (!opened) throw new Error('No browser is open: call useBrowser() at the top of the test file.');
    return opened.browser;
  };
}

/**
 * Opens a page of the public site and waits until the app has taken over the prerendered HTML
 * (the site marks <html data-app-ready> then), so clicks and typing reach React.
 */
export async function gotoApp(page: import('playwright-core').Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('html[data-app-ready]').waitFor({ state: 'attached', timeout: 20_000 });
}
