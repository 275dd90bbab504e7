import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { seriousViolations, saveShots } from '../support/a11y';
import { gotoApp, useBrowser } from '../support/browser';
import { eventually } from '../support/eventually';
import { badPhotos, personSet, selfieOf } from '../support/face-photos';
import { fakeCameraArgs, fakeCameraFile } from '../support/fake-camera';
import { signInToConsole, submitAndConfirm } from '../support/review-console';
import { useTwin } from '../support/twin';

// The proof of person in Chromium on the twin (docs/identity.md): an applicant whose photos
// include two that cannot be used consents to face checks, signs, and takes the live selfie with
// the camera (Chromium's fake camera plays a photo of them); the replace link emailed to them
// opens their photos, they remove the two and add two new ones; the photos are checked again
// and the review starts. The reviewer sees the findings, the summary and the selfie (axe on
// the photos).
jest.setTimeout(300_000);
const twin = useTwin();
const browser = useBrowser({ args: async () => fakeCameraArgs(await fakeCameraFile(await selfieOf())) });

it('consents, takes the selfie with the camera, replaces two photos through the link, and the reviewer sees the findings', async () => {
  const run = Date.now().toString(36);
  const email = `idv-e2e.${run}@applicants.example`;
  const person = await personSet(30);
  const bad = await badPhotos();
  const { applicationId, identityToken } = await submitAndConfirm(twin(), { email, firstName: 'Noa', lastName: `Reyes ${run}`, bodies: [...person.slice(0, 28), bad.noFace, bad.otherPerson[0]!] });

  const context = await browser().newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await gotoApp(page, `${twin().urls.web}/founding/identity#token=${identityToken}`);
  // The face data consent comes first, on its own; then the signature.
  await page.getByTestId('face-consent-step').waitFor({ timeout: 30_000 });
  await page.getByRole('radio', { name: /I agree: check my photos and take a selfie/ }).check();
  await page.getByTestId('face-consent-continue').click();
  await page.getByRole('textbox', { name: 'Your full name' }).fill(`Noa Reyes ${run}`);
  await page.getByTestId('sign-button').click();

  // The live selfie, from the (fake) camera: no file picker.
  await page.getByTestId('selfie-step').waitFor({ timeout: 30_000 });
  expect(await page.locator('input[type="file"]').count()).toBe(0);
  await page.getByTestId('open-camera').click();
  await page.locator('[data-testid="take-selfie"]:not([disabled])').waitFor({ timeout: 30_000 });
  await page.getByTestId('take-selfie').click();
  await page.getByTestId('use-selfie').click();
  const result = page.getByTestId('selfie-result').filter({ hasText: /matches your photos|compare it with your photos/ });
  await result.waitFor({ timeout: 60_000 });
  expect(await seriousViolations(page)).toEqual([]);
  await saveShots(page, 'identity-selfie');

  // Two photos cannot be used: the applicant is emailed a link to replace them.
  const mail = await eventually(async () => (await twin().emails()).find((m) => m.to.includes(email) && /Replace a few photos/.test(m.subject)), { timeoutMs: 120_000, what: 'the replace-photos email' });
  const link = /(http\S+\/founding\/photos#token=[A-Za-z0-9_-]{43})/.exec(mail.text ?? '')![1]!;
  await gotoApp(page, link);
  await page.getByTestId('photo-counts').filter({ hasText: '28' }).waitFor({ timeout: 30_000 });
  await page.getByTestId('remove-photo-28').check();
  await page.getByTestId('remove-photo-29').check();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-e2e-'));
  const files = person.slice(28, 30).map((body, i) => {
    const file = path.join(dir, `new-${i + 1}.jpg`);
    fs.writeFileSync(file, body);
    return file;
  });
  await page.getByTestId('new-photos-input').setInputFiles(files);
  await page.getByTestId('send-photos').click();
  await page.getByTestId('photos-sent').waitFor({ timeout: 60_000 });
  expect(await seriousViolations(page)).toEqual([]);
  await saveShots(page, 'identity-replaced');

  // The reviewer: the findings, the summary and the selfie beside the set.
  const admin = await signInToConsole(browser(), twin(), twin().admin.email, twin().admin.password);
  await eventually(
    async () => {
      await admin.goto(`${twin().urls.admin}/#/applications/${applicationId}/show`);
      return (await admin.getByTestId('findings-summary').filter({ hasText: /30 usable/ }).count()) > 0 || undefined;
    },
    { timeoutMs: 120_000, what: 'the photos checked again with 30 usable' },
  );
  expect(await admin.getByTestId('selfie').textContent()).toMatch(/Matches/);
  // The selfie itself beside the set, and its hash on the signed consent.
  await admin.getByRole('img', { name: 'The applicant’s live selfie' }).waitFor({ timeout: 30_000 });
  expect(await admin.getByText('No selfie yet').count()).toBe(0);
  expect(await admin.getByText('Replaced').count()).toBeGreaterThanOrEqual(2);
  // The whole application page: the gallery's badges, the status chips, the identity panels.
  expect(await seriousViolations(admin)).toEqual([]);
  await saveShots(admin, 'identity-review');
});
