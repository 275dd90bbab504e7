import type { Page } from 'playwright-core';
import { ReportCreated } from '../../events/reports';
import { saveShots } from '../support/a11y';
import { useBrowser } from '../support/browser';
import { randomLoopback, send } from '../support/callers';
import { fileMarker } from '../support/marker';
import { signInToConsole } from '../support/review-console';
import { useTwin } from '../support/twin';

// The review console on a phone (390 px), in Chromium: the dashboard and every list keep the
// screen's width (a wide table scrolls sideways inside its own box, the page does not), as does a
// report's page, and the app bar shows the page's title within the screen. With SHOTS=<dir>, the
// dashboard, the reports queue and the case are saved at the phone's width.
jest.setTimeout(300_000);
const twin = useTwin();
const browser = useBrowser();
const marker = fileMarker('ap');

const PHONE = 390;
const LISTS = [
  ['applications', 'Applications'],
  ['waitlist', 'Waitlist'],
  ['talent', 'Talent'],
  ['messages', 'Messages'],
  ['users', 'Users'],
  ['generations', 'Generations'],
  ['statements', 'Statements'],
  ['reports', 'Reports'],
] as const;

/** A misuse report as a visitor sends it through the public form's API (docs/product.md#reports-and-takedown). */
async function sendReport(): Promise<ReportCreated> {
  const body = {
    category: 'outside-license',
    explanation: `Used on a billboard the license does not cover (${marker}).`,
    urls: [`https://billboards.example/${marker}.jpg`],
    reporterRole: 'someone-else',
    name: 'Rosa Reporter',
    email: `reporter.${marker}@people.example`,
    goodFaith: true,
    signature: 'Rosa Reporter',
  };
  const res = await send(`${twin().urls.api}/reports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), from: randomLoopback() });
  if (res.status !== 201) throw new Error(`POST /reports answered ${res.status}: ${res.text.slice(0, 300)}`);
  return ReportCreated.parse(res.json);
}

/** The page's width and the right edge of the app bar's title. */
const widthsOf = (page: Page) =>
  page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    title: document.querySelector('#react-admin-title')!.getBoundingClientRect().right,
  }));

it('keeps every console list and its app bar within a phone’s width', async () => {
  const [{ reference }, page] = await Promise.all([sendReport(), signInToConsole(browser(), twin(), twin().admin.email, twin().admin.password)]);
  await page.setViewportSize({ width: PHONE, height: 800 });
  // Signed in: the dashboard first, as after every sign-in, with its reports card.
  await page.getByTestId('founding-value').waitFor({ timeout: 30_000 });
  expect(await page.getByTestId('reports-value').textContent()).toMatch(/^\d+ open$/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE);
  await page.getByTestId('reports-value').scrollIntoViewIfNeeded();
  await saveShots(page, 'phone-dashboard', { asIs: true });
  for (const [resource, title] of LISTS) {
    await page.goto(`${twin().urls.admin}/#/${resource}`);
    await page.locator('#react-admin-title').getByText(title).waitFor({ timeout: 30_000 });
    // Loaded: the pagination's count, or the list's empty message.
    await page.locator('.RaList-main').getByText(/^\d+-\d+ of \d+$|^No .+ found/).first().waitFor({ timeout: 30_000 });
    const widths = await widthsOf(page);
    expect({ resource, page: widths.page, titleInside: widths.title <= PHONE }).toEqual({ resource, page: PHONE, titleInside: true });
  }
  // The reports queue leads each row with the case and its timer; a case's page fits the phone too.
  await page.locator('tr', { hasText: reference }).getByTestId('sla-timer').waitFor({ timeout: 30_000 });
  // At the phone's width as it stands: a resize to the laptop's and back would leave the menu open over the page.
  await saveShots(page, 'phone-report-queue', { asIs: true });
  await page.goto(`${twin().urls.admin}/#/reports/${reference}/show`);
  await page.getByTestId('report-urls').getByText(`https://billboards.example/${marker}.jpg`).waitFor({ timeout: 30_000 });
  await page.locator('#react-admin-title').getByText(`Report ${reference}`).waitFor();
  const onCase = await widthsOf(page);
  expect({ page: onCase.page, titleInside: onCase.title <= PHONE }).toEqual({ page: PHONE, titleInside: true });
  await saveShots(page, 'phone-report-case', { asIs: true });
  // The catalog's table is wider than the phone and scrolls inside its box.
  await page.goto(`${twin().urls.admin}/#/talent`);
  const content = page.locator('.RaList-content');
  await content.getByRole('row').nth(1).waitFor({ timeout: 30_000 });
  const scroll = await content.evaluate((el) => ({ inner: el.scrollWidth, outer: el.clientWidth }));
  expect(scroll.inner).toBeGreaterThan(scroll.outer);
  await content.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await page.getByRole('columnheader', { name: 'Images made' }).waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE);
});
