import { TestEnvironment } from 'jest-environment-node';
import type { Browser } from 'playwright-core';
import { OPEN_BROWSERS } from './browser';

/** How much of a page's text a failure prints. */
const TEXT_LIMIT = 1_500;

/**
 * The browser tests' environment: when a test fails, it prints what every page the test file
 * still has open showed at that moment (address and visible text), before afterAll closes the
 * browser. A failure in CI then says which page the test was on and what it said, not only
 * which text it waited for.
 */
export default class BrowserTestEnvironment extends TestEnvironment {
  async handleTestEvent(event: { name: string; test?: { name: string } }): Promise<void> {
    if (event.name !== 'test_fn_failure' || !event.test) return;
    const browsers = this.global[OPEN_BROWSERS] as Set<Browser> | undefined;
    const pages = [...(browsers ?? [])].flatMap((b) => b.contexts().flatMap((c) => c.pages()));
    if (pages.length === 0) return;
    const shown = await Promise.all(pages.map((page, i) => describePage(page, i + 1)));
    process.stderr.write(`\nWhen "${event.test.name}" failed, its open pages showed:\n${shown.join('\n')}\n`);
  }
}

async function describePage(page: import('playwright-core').Page, n: number): Promise<string> {
  const text = await page
    .locator('body')
    .innerText({ timeout: 2_000 })
    .then((t) => t.replace(/\s+/g, ' ').trim() || '(no text)')
    .catch((error: unknown) => `(text unreadable: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  const clipped = text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT)}…` : text;
  return `  page ${n}: ${page.url()}\n    ${clipped}`;
}
