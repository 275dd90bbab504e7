import { useBrowser } from '../support/browser';
import { signInToConsole } from '../support/review-console';
import { useTwin } from '../support/twin';

// The review console on a phone (390 px), in Chromium: every list keeps the screen's width (a
// wide table scrolls sideways inside its own box, the page does not), and the app bar shows the
// page's title within the screen.
jest.setTimeout(300_000);
const twin = useTwin();
const browser = useBrowser();

const PHONE = 390;
const LISTS = [
  ['applications', 'Applications'],
  ['waitlist', 'Waitlist'],
  ['talent', 'Talent'],
  ['messages', 'Messages'],
  ['users', 'Users'],
  ['generations', 'Generations'],
  ['statements', 'Statements'],
] as const;

it('keeps every console list and its app bar within a phone’s width', async () => {
  const page = await signInToConsole(browser(), twin(), twin().admin.email, twin().admin.password);
  await page.setViewportSize({ width: PHONE, height: 800 });
  // Signed in: the dashboard first, as after every sign-in.
  await page.getByTestId('founding-value').waitFor({ timeout: 30_000 });
  for (const [resource, title] of LISTS) {
    await page.goto(`${twin().urls.admin}/#/${resource}`);
    await page.locator('#react-admin-title').getByText(title).waitFor({ timeout: 30_000 });
    // Loaded: the pagination's count, or the list's empty message.
    await page.locator('.RaList-main').getByText(/^\d+-\d+ of \d+$|^No .+ found/).first().waitFor({ timeout: 30_000 });
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      title: document.querySelector('#react-admin-title')!.getBoundingClientRect().right,
    }));
    expect({ resource, page: widths.page, titleInside: widths.title <= PHONE }).toEqual({ resource, page: PHONE, titleInside: true });
  }
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
