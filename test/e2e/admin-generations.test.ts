import type { Page } from 'playwright-core';
import { AdminStats } from '../../events/admin';
import { excludedIndustryMessage } from '../../events/generation-values';
import { AdminGeneration, GenerationConfig } from '../../events/generations';
import { useBrowser } from '../support/browser';
import { eventually } from '../support/eventually';
import { adminGet, generateAs, newClient, signInToConsole } from '../support/review-console';
import { useTwin } from '../support/twin';

// The console's Generations resource on the twin, in Chromium. A client makes two generations
// through the API (one delivered, one refused by the talent's excluded industries); the admin
// sees the failed count on the dashboard, filters the list by client and status, opens each
// generation (steps, prediction id, images, download, failure message), and edits a talent's
// generation config, where the API's validation messages show on the fields.
jest.setTimeout(300_000);
const twin = useTwin();
const browser = useBrowser();

const TALENT = 'maya-chen';

const region = (page: Page, name: string) => page.getByRole('region', { name });

describe("the console's Generations resource", () => {
  it('counts failed generations on the dashboard, filters by client and status, shows steps, prediction id and images, and validates a talent config', async () => {
    const email = `gens.${Date.now().toString(36)}@people.example`;
    const token = await newClient(twin(), email);
    const [done, refused] = await Promise.all([
      generateAs(twin(), token, { talentId: TALENT, prompt: 'Reading on a sunlit balcony', style: 'Lifestyle', count: 1 }),
      generateAs(twin(), token, { talentId: TALENT, prompt: 'Raising a glass of wine at a rooftop party', style: 'Editorial', count: 1 }),
    ]);
    expect(done.status).toBe('succeeded');
    expect(refused).toMatchObject({ status: 'failed', failure: { code: 'policy', message: excludedIndustryMessage('alcohol') } });
    const detail = AdminGeneration.parse((await adminGet(twin(), `/generations/${done.id}`)).json);
    expect(detail.predictionId).toBeTruthy();

    const page = await signInToConsole(browser(), twin(), twin().admin.email, twin().admin.password);

    // The dashboard's figure is the API's count (at least this client's failure), and links to the failed list.
    const failedFigure = page.getByTestId('failed-generations-value');
    await failedFigure.waitFor({ timeout: 30_000 });
    const stats = AdminStats.parse((await adminGet(twin(), '/stats')).json);
    expect(stats.generations.failed).toBeGreaterThanOrEqual(1);
    expect(Number(await failedFigure.textContent())).toBeGreaterThanOrEqual(1);
    expect(await failedFigure.getByRole('link').getAttribute('href')).toContain(encodeURIComponent('{"status":"failed"}'));

    // The list, filtered to this client (picked by email) and then by status.
    await page.getByRole('menuitem', { name: 'Generations' }).click();
    await page.getByRole('combobox', { name: 'Client' }).fill(email);
    await page.getByRole('option', { name: email }).click();
    const rows = page.getByRole('row').filter({ hasText: email });
    await rows.nth(1).waitFor({ timeout: 30_000 });
    expect(await rows.count()).toBe(2);

    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Failed' }).click();
    await rows.nth(1).waitFor({ state: 'detached', timeout: 30_000 });
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Failed');

    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Succeeded' }).click();
    await rows.filter({ hasText: 'Succeeded' }).waitFor({ timeout: 30_000 });
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('1 of 1');

    // The delivered generation: steps, the prediction id, the image and its download.
    await rows.first().click();
    await page.getByRole('heading', { name: 'Maya Chen · Lifestyle', level: 1 }).waitFor({ timeout: 30_000 });
    await page.getByTestId('prediction-id').getByText(detail.predictionId!, { exact: true }).waitFor({ timeout: 30_000 });
    const steps = region(page, 'Workflow steps').getByRole('listitem');
    await steps.nth(detail.steps.length - 1).waitFor();
    expect(await steps.count()).toBe(detail.steps.length);
    expect(detail.steps.length).toBeGreaterThanOrEqual(3);
    expect(await steps.first().textContent()).toContain('Reserve credits');
    const image = region(page, 'Images').getByTestId('generation-image');
    expect(await image.count()).toBe(1);
    const licenseId = detail.images[0].licenseId;
    expect(await image.getByRole('link', { name: licenseId }).getAttribute('href')).toBe(`${twin().urls.web}/licenses/${licenseId}`);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), image.getByRole('button', { name: 'Download image 1' }).click()]);
    expect(download.suggestedFilename()).toBe(`humanly-${TALENT}-${licenseId}.png`);

    // The refused one: its message.
    await page.goto(`${twin().urls.admin}/#/generations/${refused.id}/show`);
    await page.getByTestId('generation-failure').getByText(excludedIndustryMessage('alcohol')).waitFor({ timeout: 30_000 });

    // A talent's generation config: the seeded preview config, the API's messages on the fields, then saved unchanged.
    const seeded = GenerationConfig.parse((await adminGet(twin(), `/talent/${TALENT}/generation-config`)).json);
    await page.goto(`${twin().urls.admin}/#/talent/${TALENT}`);
    const config = region(page, 'Generation config');
    const model = config.getByRole('textbox', { name: 'Model' });
    await expectValue(model, seeded.model!);
    const trigger = config.getByRole('textbox', { name: 'Trigger word' });
    expect(await trigger.inputValue()).toBe(seeded.triggerWord);
    const save = config.getByRole('button', { name: 'Save generation config' });

    await model.fill('not a model');
    await save.click();
    await config.getByText('model must be a Replicate model such as owner/name').waitFor({ timeout: 30_000 });
    expect(await model.getAttribute('aria-invalid')).toBe('true');

    await model.fill(seeded.model!);
    await trigger.fill('two words');
    await save.click();
    await config.getByText('triggerWord must be one word').waitFor({ timeout: 30_000 });

    await trigger.fill(seeded.triggerWord);
    await save.click();
    await page.getByText('Generation config saved.').waitFor({ timeout: 30_000 });
    expect(GenerationConfig.parse((await adminGet(twin(), `/talent/${TALENT}/generation-config`)).json)).toEqual(seeded);
  });
});

/** Waits until an input holds `value` (the section loads the config after the page). */
async function expectValue(input: ReturnType<Page['getByRole']>, value: string) {
  await eventually(
    async () => {
      if (!(await input.count())) return false;
      const held = await input.inputValue();
      if (held !== value) throw new Error(`the input holds ${held}`);
      return true;
    },
    { timeoutMs: 30_000, what: `the input to hold ${value}` },
  );
}
