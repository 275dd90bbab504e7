import { seedUser } from '../../infra/local/provision';
import { REMOVAL_CANCELLED_MESSAGE } from '../../events/royalty-values';
import { createAcceptedTalent } from '../support/accepted-talent';
import { gotoApp, useBrowser } from '../support/browser';
import { idToken, useTwin } from '../support/twin';
import { saveShots, seriousViolations } from '../support/a11y';
import { fileMarker } from '../support/marker';
import { eventually } from '../support/eventually';

// A talent's removal in Chromium on the twin (docs/royalties.md#likeness), where the notice is
// 5 seconds: an accepted founding talent, active in the library, requests removal in the talent
// portal (the confirm dialog, its founding warning, axe with it open, Escape), cancels, confirms
// again; after the notice and the likeness schedule they are gone from /talent and /create, and
// their profile page says not found. With SHOTS=<dir>, the dialog and the pending removal are
// also saved as screenshots.
jest.setTimeout(120_000);
const twin = useTwin();
const marker = fileMarker('lk');
const PASSWORD = 'Likeness-Passw0rd!';

const browser = useBrowser();

it('an active talent requests removal, cancels, confirms; after the notice they leave /talent and /create', async () => {
  const web = twin().urls.web;
  const email = `leaving.${marker}@people.example`;
  const talentId = `leaving-${marker}`;
  const name = `Lia ${marker}`;
  await createAcceptedTalent(twin(), { email, talentId, firstName: 'Lia', lastName: marker, founding: true, marker });
  await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['talent'], name, attributes: { 'custom:role': 'talent' } });
  // The console makes the profile active (the reviewer's step once the profile is ready).
  const admin = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
  const activated = await fetch(`${twin().urls.api}/admin/talent/${talentId}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'active' }),
  });
  expect(activated.status).toBe(200);

  const context = await browser().newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));

  // Listed before anything happens.
  await gotoApp(page, `${web}/talent/${talentId}`);
  await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 20_000 });

  await gotoApp(page, `${web}/sign-in?next=%2Ftalent-portal`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/talent-portal$/, { timeout: 30_000 });

  const controls = page.getByTestId('likeness-controls');
  const state = controls.getByTestId('likeness-state');
  await state.filter({ hasText: 'Available' }).waitFor({ timeout: 20_000 });

  // The dialog: the notice, what happens, the founding warning; Confirm waits for the box.
  const request = controls.getByRole('button', { name: 'Request removal' });
  await request.click();
  const dialog = page.getByRole('dialog', { name: 'Remove your likeness?' });
  await dialog.waitFor();
  expect(await dialog.textContent()).toContain('30-day notice');
  expect(await dialog.textContent()).toContain('licenses already issued');
  expect(await dialog.textContent()).toContain('Removing your likeness ends your 35% lifetime royalty rate');
  const confirm = dialog.getByRole('button', { name: 'Confirm removal' });
  expect(await confirm.isDisabled()).toBe(true);
  await saveShots(page, 'likeness-removal-dialog', { asIs: true });
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  expect(await request.evaluate((el) => el === document.activeElement)).toBe(true);

  // Requested, cancelled, requested again (at phone width).
  await page.setViewportSize({ width: 390, height: 800 });
  await request.click();
  await dialog.getByLabel('I understand that I lose my founding 35% rate for good.').check();
  await saveShots(page, 'likeness-removal-dialog', { asIs: true });
  await confirm.click();
  await dialog.waitFor({ state: 'hidden' });
  await controls.getByRole('status').filter({ hasText: 'Removal requested.' }).waitFor();
  expect(await state.textContent()).toMatch(/^Removal on /);
  await controls.scrollIntoViewIfNeeded();
  await saveShots(page, 'likeness-removal-pending', { asIs: true });
  await controls.getByRole('button', { name: 'Cancel removal' }).click();
  await controls.getByRole('status').filter({ hasText: REMOVAL_CANCELLED_MESSAGE }).waitFor();
  expect(await state.textContent()).toBe('Available');
  await request.click();
  await dialog.getByLabel('I understand that I lose my founding 35% rate for good.').check();
  await confirm.click();
  await controls.getByRole('status').filter({ hasText: 'Removal requested.' }).waitFor();

  // The data download, with the session's token.
  const [download] = await Promise.all([page.waitForEvent('download'), controls.getByRole('button', { name: 'Download my data (JSON)' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^humanly-data-\d{4}-\d{2}-\d{2}\.json$/);

  // The notice (5 s on the twin) runs out: the talent leaves the library; the hourly schedule carries the removal out.
  await eventually(async () => (await fetch(`${twin().urls.api}/talent/${talentId}`)).status === 404, { what: 'the talent out of the library once the notice ends' });
  await twin().events.runScheduled('LikenessSchedule');
  await page.reload();
  await state.filter({ hasText: 'Removed' }).waitFor({ timeout: 20_000 });
  expect(await controls.getByRole('button', { name: 'Request removal' }).count()).toBe(0);

  expect(errors).toEqual([]);
  await context.close();

  // What a visitor sees: not in the library, no profile, not on the create page.
  const visitor = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  const pub = await visitor.newPage();
  pub.on('pageerror', (e) => errors.push(e.message));
  await gotoApp(pub, `${web}/talent`);
  await pub.getByTestId('talent-card').first().waitFor({ timeout: 20_000 });
  expect(await pub.getByTestId('talent-card').filter({ hasText: name }).count()).toBe(0);
  await gotoApp(pub, `${web}/talent/${talentId}`);
  await pub.getByTestId('talent-not-found').waitFor({ timeout: 20_000 });
  await gotoApp(pub, `${web}/create?talent=${talentId}`);
  const models = pub.getByTestId('model-select');
  await models.locator('option').nth(1).waitFor({ state: 'attached', timeout: 20_000 });
  expect(await models.locator('option').allTextContents()).not.toContain(name);
  expect(errors).toEqual([]);
  await visitor.close();
});
