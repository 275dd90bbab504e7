// /verify in Chromium (decision 062): an image generated on the twin and downloaded by its owner
// is dropped on the page, whose Content Authenticity Initiative reader says its credentials are
// valid, signed by Humanly with the test certificate, made by AI of the talent under our license,
// and whose license check finds the licensed image; the same file with one pixel changed is
// tampered; a PNG from elsewhere has no credentials. axe finds no serious violation. With
// SHOTS=<dir>, the page is saved as screenshots at 390 and 1280 px. /licenses/check loads its
// reader only once a file is chosen, shows that it is reading, and offers a retry when the reader
// fails to load (decision 063).
import sharp from 'sharp';
import { saveShots, seriousViolations } from '../support/a11y';
import { gotoApp, useBrowser } from '../support/browser';
import { withOnePixelChanged } from '../support/content-credentials';
import { licensedImages } from '../support/licensed-images';
import { fileMarker } from '../support/marker';
import { useTwin } from '../support/twin';

jest.setTimeout(180_000);
const twin = useTwin();
const browser = useBrowser();
const run = fileMarker('vfy');

let licenseId: string;
let file: Buffer;

beforeAll(async () => {
  ({ licenseIds: [licenseId], files: [file] } = await licensedImages(twin(), { marker: run, name: 'Vera Fide', prompt: 'A baker at sunrise' }));
});

it('/verify reads our credentials as valid and ours, a changed pixel as tampered, and a PNG from elsewhere as none', async () => {
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await gotoApp(page, `${twin().urls.web}/verify`);
  const input = page.locator('input[type=file]');
  const verdict = page.getByTestId('verify-verdict');

  await input.setInputFiles({ name: `humanly-maya-chen-${licenseId}.png`, mimeType: 'image/png', buffer: file });
  await page.getByTestId('verify-license-check').and(page.locator('[data-verdict="licensed-image"]')).waitFor({ timeout: 60_000 });
  expect(await verdict.getAttribute('data-verdict')).toBe('ours');
  expect(await verdict.textContent()).toContain('signed by Humanly with a test certificate');
  expect(await page.getByTestId('verify-made-by').textContent()).toBe(`Made by AI of Maya Chen under license ${licenseId}.`);
  expect(await page.getByTestId('verify-made-by').getByRole('link').getAttribute('href')).toBe(`/licenses/${licenseId}`);
  expect(await seriousViolations(page)).toEqual([]);
  await saveShots(page, 'verify');

  await input.setInputFiles({ name: 'changed.png', mimeType: 'image/png', buffer: await withOnePixelChanged(file) });
  await page.locator('[data-testid="verify-verdict"][data-verdict="tampered"]').waitFor({ timeout: 30_000 });
  expect(await verdict.textContent()).toContain('Tampered');

  const elsewhere = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#c63' } }).png().toBuffer();
  await input.setInputFiles({ name: 'elsewhere.png', mimeType: 'image/png', buffer: elsewhere });
  await page.locator('[data-testid="verify-verdict"][data-verdict="none"]').waitFor({ timeout: 30_000 });
  expect(await verdict.textContent()).toContain('This file carries no Content Credentials');
  expect(errors).toEqual([]);
  await context.close();
});

it('/licenses/check loads its reader only with a file, shows it reading, offers a retry when the reader fails to load, and finds the licensed image', async () => {
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const scripts: string[] = [];
  page.on('request', (r) => void (r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname)));
  // The reader's chunk fails to load once; the second time it waits until the page has shown that it is reading.
  let attempts = 0;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/license-file-check-[\w-]+\.js$/, async (route) => {
    attempts += 1;
    if (attempts === 1) return route.abort();
    await held;
    return route.continue();
  });
  await gotoApp(page, `${twin().urls.web}/licenses/check`);
  expect(scripts.filter((s) => s.includes('license-file-check'))).toEqual([]);

  await page.locator('input[type=file]').setInputFiles({ name: `humanly-maya-chen-${licenseId}.png`, mimeType: 'image/png', buffer: file });
  const failed = page.getByTestId('license-check-reader-failed');
  await failed.waitFor({ timeout: 15_000 });
  expect(await failed.textContent()).toContain('The image reader could not load');
  await failed.getByRole('button', { name: 'Try again' }).click();
  const progress = page.getByTestId('license-check-progress');
  await progress.and(page.locator('[data-step="reading"]')).waitFor({ timeout: 15_000 });
  expect(await progress.textContent()).toContain('Reading the image…');
  release();

  const card = page.getByTestId('license-card');
  await card.waitFor({ timeout: 30_000 });
  expect(await card.getByTestId('license-id').textContent()).toBe(licenseId);
  expect(await page.getByTestId('license-check-verdict').getAttribute('data-verdict')).toBe('licensed-image');
  expect(attempts).toBe(2);
  expect(await seriousViolations(page)).toEqual([]);
  await saveShots(page, 'license-check-chosen');
  expect(errors).toEqual([]);
  await context.close();
});
