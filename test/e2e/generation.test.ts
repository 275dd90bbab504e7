import sharp from 'sharp';
import {
  IMAGE_GENERATION_FAILED,
  IPTC_TRAINED_ALGORITHMIC_MEDIA,
  LICENSE_ID_PATTERN,
  LICENSE_SCOPE_TEXT,
  XMP_NAMESPACE,
  excludedIndustryMessage,
} from '../../events/generation-values';
import { gotoApp, onOwnNetwork, useBrowser } from '../support/browser';
import { latestCognitoCode } from '../support/cognito-mail';
import { useTwin } from '../support/twin';
import { seriousViolations, saveShots } from '../support/a11y';
import { fileMarker } from '../support/marker';

// Generation in Chromium on the twin (docs/product.md#create, #licenses): a visitor types a prompt
// on /create?talent=maya-chen, creates a client account from the page and comes back to it with
// the prompt kept, is refused for a prompt within the talent's excluded industries (alcohol, as
// seeded for Maya Chen), generates 4 images through the workflow and the Replicate emulator, downloads
// one (the file carries its license in XMP), checks it on /licenses/check (the file is the
// licensed image), sees the license confirmed on /licenses/{id} with the image's thumbnail, and
// finds the 4 spent credits and the generation in the portal.
// axe finds no serious violation on /create (signed out, and with results), the check and the
// license page. With SHOTS=<dir>, the pages are also saved as screenshots at 390 and 1280 px.
jest.setTimeout(120_000);
const twin = useTwin();
const marker = fileMarker('gn');
const PASSWORD = 'Generate-Passw0rd!';
const PROMPT = 'Walking through a sunlit street market, holding a coffee';

const browser = useBrowser();

describe('generation', () => {
  it('a new client generates 4 images of Maya Chen, downloads one with its license inside, and sees the license and the spent credits', async () => {
    const email = `client.${marker}@people.example`;
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await onOwnNetwork(context, twin().urls.cognito);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const web = twin().urls.web;

    // Signed out: the page explains, the prompt typed before signing up is kept.
    await gotoApp(page, `${web}/create?talent=maya-chen`);
    const signedOut = page.getByTestId('create-signed-out');
    await signedOut.waitFor();
    const model = page.getByLabel('Model');
    await page.getByTestId('create-selected-talent').filter({ hasText: 'Maya Chen' }).waitFor();
    expect(await model.inputValue()).toBe('maya-chen');
    await page.getByLabel('Prompt').fill(PROMPT);
    expect(await page.getByRole('button', { name: 'Generate Images' }).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await signedOut.getByRole('link', { name: 'Create an account' }).click();

    await page.getByTestId('role-client').click();
    await page.getByLabel('Full name').fill('Gina Maker');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('Code').waitFor({ timeout: 20_000 });
    await page.getByLabel('Code').fill(await latestCognitoCode(twin(), email));
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await page.waitForURL(/\/create\?talent=maya-chen$/, { timeout: 30_000 });

    // Back on /create as a client: the prompt kept, Photorealistic and 4 images by default, 10 credits.
    await page.getByTestId('create-balance').filter({ hasText: '10' }).waitFor({ timeout: 20_000 });
    expect(await page.getByLabel('Prompt').inputValue()).toBe(PROMPT);
    expect(await page.getByRole('radio', { name: 'Photorealistic' }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: '4', exact: true }).isChecked()).toBe(true);
    expect(await page.getByTestId('create-cost').textContent()).toContain('Costs 4 credits');
    // The style by keyboard, as a radio group: from Photorealistic, the arrow key moves to Portrait.
    await page.getByRole('radio', { name: 'Photorealistic' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('radio', { name: 'Portrait' }).isChecked()).toBe(true);
    await saveShots(page, 'create-idle');
    const generate = page.getByTestId('generate');

    // A prompt within an industry the talent excludes: refused by the workflow, said in a toast
    // and under the form; the reserved credit comes back.
    await page.getByLabel('Prompt').fill('Raising a glass of wine at a rooftop bar');
    await page.getByRole('radio', { name: '1', exact: true }).check();
    await generate.click();
    const toast = page.getByTestId('toast').filter({ hasText: IMAGE_GENERATION_FAILED });
    await toast.waitFor({ timeout: 30_000 });
    expect(await toast.getByTestId('toast-description').textContent()).toBe(excludedIndustryMessage('alcohol'));
    expect(await page.getByTestId('create-problem').textContent()).toContain(excludedIndustryMessage('alcohol'));
    await page.getByTestId('create-balance').filter({ hasText: /^10$/ }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('create-result').count()).toBe(0);

    await page.getByLabel('Prompt').fill(PROMPT);
    await page.getByRole('radio', { name: '4', exact: true }).check();
    await generate.click();
    expect(await page.getByTestId('create-problem').count()).toBe(0);
    await page.getByRole('button', { name: 'Generating...' }).waitFor();
    await page.getByRole('progressbar', { name: 'Generation progress' }).waitFor();
    await saveShots(page, 'create-running');

    const results = page.getByTestId('create-result');
    await results.nth(3).waitFor({ timeout: 60_000 });
    expect(await results.count()).toBe(4);
    await page.getByRole('button', { name: 'Generate Images' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: '4 images are ready.' }).count()).toBe(1);
    // Every image shows (its view URL loads from our bucket).
    await page.waitForFunction(
      () => {
        const imgs = Array.from(document.querySelectorAll<HTMLImageElement>('[data-testid="create-result"] img'));
        return imgs.length === 4 && imgs.every((img) => img.complete && img.naturalWidth > 0);
      },
      undefined,
      { timeout: 15_000 },
    );
    // The balance refreshed after the run: 10 - 4.
    await page.getByTestId('create-balance').filter({ hasText: /^6$/ }).waitFor({ timeout: 15_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'create-results');

    // A real download of the first image: the original file, named after talent and license, its license inside.
    const first = results.first();
    const licenseId = await first.getAttribute('data-license-id');
    expect(licenseId).toMatch(LICENSE_ID_PATTERN);
    expect(await first.getByRole('link', { name: 'License of image 1' }).getAttribute('href')).toBe(`/licenses/${licenseId}`);
    const [download] = await Promise.all([page.waitForEvent('download'), first.getByRole('button', { name: 'Download image 1' }).click()]);
    expect(download.suggestedFilename()).toBe(`humanly-maya-chen-${licenseId}.png`);
    const file = await download.path();
    const meta = await sharp(file).metadata();
    expect(meta.format).toBe('png');
    const xmp = meta.xmp?.toString('utf8') ?? '';
    expect(xmp).toContain(XMP_NAMESPACE);
    expect(xmp).toContain(licenseId!);
    expect(xmp).toContain(IPTC_TRAINED_ALGORITHMIC_MEDIA);

    // The check page reads that file's license in the browser, the API compares its pixels: it is the licensed image.
    await gotoApp(page, `${web}/licenses/check`);
    await page.locator('input[type=file]').setInputFiles(file);
    const checked = page.getByTestId('license-card');
    await checked.waitFor({ timeout: 15_000 });
    expect(await checked.getByTestId('license-id').textContent()).toBe(licenseId);
    expect(await page.getByTestId('license-check-verdict').getAttribute('data-verdict')).toBe('licensed-image');
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'license-check');

    // The public license page confirms it, without the prompt.
    await gotoApp(page, `${web}/licenses/${licenseId}`);
    const card = page.getByTestId('license-card');
    await card.waitFor({ timeout: 15_000 });
    expect(await card.getByTestId('license-talent').getByRole('link', { name: 'Maya Chen' }).getAttribute('href')).toBe('/talent/maya-chen');
    expect(await card.getByTestId('license-licensee').textContent()).toBe('Gina Maker');
    expect(await card.getByTestId('license-scope').textContent()).toBe(LICENSE_SCOPE_TEXT);
    expect(await page.locator('body').textContent()).not.toContain('sunlit street market');
    // The licensed image, as a small thumbnail from the API (never the file itself).
    const thumbnail = card.getByTestId('license-thumbnail');
    expect(await thumbnail.getAttribute('alt')).toBe('The licensed image of Maya Chen');
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="license-thumbnail"]');
      return Boolean(img?.complete && img.naturalWidth > 0);
    }, undefined, { timeout: 15_000 });
    const natural = await thumbnail.evaluate((img: HTMLImageElement) => Math.max(img.naturalWidth, img.naturalHeight));
    expect(natural).toBeLessThanOrEqual(320);
    expect(natural).toBeLessThan(meta.width!);
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'license');
    await gotoApp(page, `${web}/licenses/lic_${'x'.repeat(22)}`);
    await page.getByRole('heading', { level: 1, name: 'License not found' }).waitFor({ timeout: 15_000 });

    // The portal: balance 6, the spend in the ledger, the generation in the history.
    await gotoApp(page, `${web}/client-portal`);
    await page.getByRole('heading', { level: 1, name: 'Welcome, Gina' }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('balance-number').textContent()).toBe('6');
    const ledger = page.getByTestId('ledger-entry');
    await ledger.nth(1).waitFor();
    await ledger.nth(7).waitFor();
    const lines = await ledger.evaluateAll((rows) =>
      rows.map((row) => ['ledger-kind', 'ledger-change'].map((id) => row.querySelector(`[data-testid="${id}"]`)?.textContent).join(' ')),
    );
    // Newest first: the spend of each of the 4 delivered images (one with each license), their
    // reservation, the refused run's credit back and its reservation, the grant.
    expect(lines).toEqual(['Spent 0', 'Spent 0', 'Spent 0', 'Spent 0', 'Reserved -4', 'Returned +1', 'Reserved -1', 'Grant +10']);
    const item = page.getByTestId('history-item');
    await item.nth(1).waitFor();
    expect(await item.count()).toBe(2);
    const done = item.first();
    expect(await done.getByTestId('history-status').textContent()).toBe('Done');
    expect(await done.getByTestId('history-credits').textContent()).toBe('4 credits spent');
    expect(await done.getByTestId('history-image').count()).toBe(4);
    expect(await done.getByRole('link', { name: /^License of image 1/ }).getAttribute('href')).toBe(`/licenses/${licenseId}`);
    const refused = item.nth(1);
    expect(await refused.getByTestId('history-status').textContent()).toBe('Failed');
    expect(await refused.getByTestId('history-credits').textContent()).toBe('0 credits spent');
    expect(await refused.getByTestId('history-failure').textContent()).toBe(excludedIndustryMessage('alcohol'));
    await saveShots(page, 'client-portal-history');
    expect(errors).toEqual([]);
    await context.close();
  });
});
