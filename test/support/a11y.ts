import AxeBuilder from '@axe-core/playwright';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { eventually } from './eventually';

// The one way browser tests check accessibility and save screenshots.

const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface AxeOptions {
  /** A CSS selector: check only that part of the page. */
  include?: string;
  /** Wait (up to 15 s) for the page's loading indicators (role progressbar) to go first. */
  afterLoading?: boolean;
}

/**
 * Waits until nothing on the page is mid-change: every finite CSS transition and animation has
 * finished (a chip whose colours are fading, or a toast fading in, is not what a person reads
 * once it has settled). Endless ones (spinners) are left running. Gives up after 5 s and lets
 * axe judge the page as it is.
 */
async function settle(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () => document.getAnimations().every((a) => a.playState !== 'running' || !Number.isFinite(Number(a.effect?.getComputedTiming().endTime))),
      undefined,
      { timeout: 5_000, polling: 50 },
    )
    .catch(() => undefined);
}

/** The serious and critical WCAG 2.1 AA violations axe finds once the page has settled, each as `rule: targets`. */
export async function seriousViolations(page: Page, options: AxeOptions = {}): Promise<string[]> {
  if (options.afterLoading) {
    // A page that never finishes loading fails here, naming it, rather than being judged half-drawn.
    // Loading shows as a progress bar with no value; one with a value (spots taken, upload done)
    // is content that stays.
    const loading = page.locator('[role="progressbar"]:not([aria-valuenow])');
    await eventually(async () => (await loading.count()) === 0, { timeoutMs: 30_000, what: `${page.url()} to finish loading` });
  }
  await settle(page);
  let axe = new AxeBuilder({ page }).withTags(WCAG_AA);
  if (options.include) axe = axe.include(options.include);
  const results = await axe.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const SHOTS = process.env.SHOTS;

/**
 * With SHOTS=<dir>, saves the page as `<name>-<width>.png`: by default whole, at laptop and phone
 * widths (then back to 1280 px); with `{ asIs: true }`, the viewport as it stands (an open dialog).
 */
export async function saveShots(page: Page, name: string, options: { asIs?: boolean } = {}): Promise<void> {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  if (options.asIs) {
    await page.screenshot({ path: path.join(SHOTS, `${name}-${page.viewportSize()?.width ?? 0}.png`) });
    return;
  }
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await settle(page);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
