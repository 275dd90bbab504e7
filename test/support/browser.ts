import * as http from 'node:http';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { freshAddress } from './from-address';

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
  // Contexts prefer reduced motion unless a test asks for motion: the site then stops its
  // animations (base.css), so a page left open while a test waits costs no CPU for frames no
  // one looks at. A test of motion passes reducedMotion: 'no-preference'.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ ...options, reducedMotion: options.reducedMotion ?? 'reduce' });
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

/** Headers a proxy does not pass on: they describe one connection, not the message. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

/**
 * Makes a browser context's calls to the user pool (`cognitoUrl`, the twin's Cognito) from a
 * loopback address of its own, as a person on their own network does. The pool's web ACL counts
 * code-sending calls (sign-up, resend, forgot password) per address (decision 040); without this,
 * every browser of a run shares 127.0.0.1 and one file's sign-ups use up another's. Each call is
 * made from Node through `localAddress` and its answer handed to the page unchanged (Playwright
 * answers the CORS preflight of a routed call itself).
 */
export async function onOwnNetwork(context: BrowserContext, cognitoUrl: string): Promise<void> {
  const agent = new http.Agent({ localAddress: freshAddress(), keepAlive: false });
  const origin = new URL(cognitoUrl).origin;
  await context.route(
    (url) => url.origin === origin,
    async (route) => {
      const request = route.request();
      const headers = Object.fromEntries(Object.entries(await request.allHeaders()).filter(([name]) => !HOP_BY_HOP.has(name) && !name.startsWith(':')));
      const body = request.postDataBuffer();
      const answer = await new Promise<{ status: number; headers: Record<string, string>; body: Buffer } | undefined>((resolve) => {
        const call = http.request(request.url(), { method: request.method(), headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const out: Record<string, string> = {};
            for (const [name, value] of Object.entries(res.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = Array.isArray(value) ? value.join(', ') : value;
            resolve({ status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) });
          });
          // The connection failed: the page sees a network error, as it would.
          res.on('error', () => resolve(undefined));
        });
        call.on('error', () => resolve(undefined));
        call.end(body ?? undefined);
      });
      await (answer ? route.fulfill(answer) : route.abort('connectionfailed'));
    },
  );
}
