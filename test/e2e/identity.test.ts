import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { seriousViolations, saveShots } from '../support/a11y';
import { gotoApp, useBrowser } from '../support/browser';
import { eventually } from '../support/eventually';
import { badPhotos, FACE_CHECKS_WAIT_MS, personSet, selfieOf } from '../support/face-photos';
import { fakeCameraArgs, fakeCameraFile } from '../support/fake-camera';
import { signInToConsole, submitAndConfirm } from '../support/review-console';
import { useTwin } from '../support/twin';

// The proof of person in Chromium on the twin (docs/identity.md, decision 056): an applicant whose
// photos include two that cannot be used consents to face checks, signs, and verifies their ID on
// the Stripe emulator's hosted page, taking the selfie with its camera (Chromium's fake camera
// plays a new photo of the man of the set). Stripe sends them back to /founding/identity without
// the token, which the tab kept, and the page follows the verification until it is verified. The
// replace link emailed to them opens their photos, they remove the two and add two new ones; the
// photos are checked again and the review starts. The reviewer sees "ID verified", the name and
// age findings, "selfie matches the set" and the photo findings (axe on every page).
jest.setTimeout(600_000);
const twin = useTwin();
const browser = useBrowser({ args: async () => fakeCameraArgs(await fakeCameraFile(await selfieOf())) });

/** Fills the emulator's hosted verification page as the person on the ID, the selfie from the camera, and submits it. */
async function verifyOnStripe(page: Page, person: { firstName: string; lastName: string; document: Buffer }) {
  await page.getByRole('heading', { name: 'Verify your identity' }).waitFor({ timeout: 30_000 });
  const type = page.getByLabel('Type of ID');
  const firstType = (await type.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).find(Boolean);
  await type.selectOption(firstType!);
  await page.getByLabel('Photo of the front of your ID').setInputFiles({ name: 'passport.jpg', mimeType: 'image/jpeg', buffer: person.document });
  // The selfie is live: the page's camera, no file chosen.
  await page.getByRole('button', { name: 'Turn on the camera' }).click();
  await page.getByRole('button', { name: 'Take selfie' }).click();
  await page.getByText('Selfie taken.').waitFor({ timeout: 30_000 });
  await page.getByLabel('First and middle names').fill(person.firstName);
  await page.getByLabel('Last name').fill(person.lastName);
  await page.getByLabel('Date of birth').fill('1990-04-12');
  await page.getByRole('radio', { name: 'Verified', exact: true }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
}

it('consents, verifies the ID on Stripe’s page with a live selfie, replaces two photos, and the reviewer sees the findings', async () => {
  const run = Date.now().toString(36);
  const email = `idv-e2e.${run}@applicants.example`;
  const lastName = `Reyes ${run}`;
  const person = await personSet(30);
  const bad = await badPhotos();
  const { applicationId, identityToken } = await submitAndConfirm(twin(), { email, firstName: 'Noa', lastName, bodies: [...person.slice(0, 28), bad.noFace, bad.otherPerson[0]!] });

  const context = await browser().newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await gotoApp(page, `${twin().urls.web}/founding/identity#token=${identityToken}`);
  // The face data consent comes first, on its own; then the signature.
  await page.getByTestId('face-consent-step').waitFor({ timeout: 30_000 });
  await page.getByRole('radio', { name: /I agree: check my photos and my selfie/ }).check();
  await page.getByTestId('face-consent-continue').click();
  await page.getByRole('textbox', { name: 'Your full name' }).fill(`Noa ${lastName}`);
  await page.getByTestId('sign-button').click();

  // What happens on Stripe's page and what we keep, then Stripe's page in this tab.
  const verify = page.getByTestId('verify-step');
  await verify.getByRole('heading', { name: 'Verify your ID' }).waitFor({ timeout: 30_000 });
  await verify.getByText('then a selfie').waitFor();
  await verify.getByText('We never keep the pictures of your ID or its number.').waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await saveShots(page, 'identity-verify');
  await page.getByRole('button', { name: 'Verify my ID with Stripe' }).click();
  await page.waitForURL((url) => url.origin !== new URL(twin().urls.web).origin, { timeout: 30_000 });
  await verifyOnStripe(page, { firstName: 'Noa', lastName, document: bad.noFace });

  // Back on /founding/identity, without the token in the address: the tab kept it. The page reads
  // again by itself until Stripe's result is in.
  await page.waitForURL((url) => url.origin === new URL(twin().urls.web).origin && url.pathname === '/founding/identity', { timeout: 30_000 });
  expect(new URL(page.url()).hash).toBe('');
  await page.getByTestId('verification-result').filter({ hasText: 'Your ID is verified.' }).waitFor({ timeout: 60_000 });
  await page.getByRole('listitem').filter({ hasText: 'Verify your ID' }).filter({ hasText: '(done)' }).waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await saveShots(page, 'identity-verified');

  // Two photos cannot be used: the applicant is emailed a link to replace them.
  const mail = await eventually(async () => (await twin().emails()).find((m) => m.to.includes(email) && /Replace a few photos/.test(m.subject)), { timeoutMs: FACE_CHECKS_WAIT_MS, what: 'the replace-photos email' });
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

  // The reviewer: the ID verification's findings, the photo findings and Stripe's selfie beside the set.
  const admin = await signInToConsole(browser(), twin(), twin().admin.email, twin().admin.password);
  await eventually(
    async () => {
      // Through the list and back (the console keeps its session in the page, so no reload): the application is read again.
      await admin.goto(`${twin().urls.admin}/#/applications`);
      await admin.goto(`${twin().urls.admin}/#/applications/${applicationId}/show`);
      await admin.getByTestId('verification').waitFor({ timeout: 30_000 });
      const checked = (await admin.getByTestId('findings-summary').filter({ hasText: /30 usable/ }).count()) > 0;
      const matched = (await admin.getByTestId('selfie-finding').filter({ hasText: 'selfie matches the set' }).count()) > 0;
      const waiting = (await admin.getByRole('button', { name: 'Accept', exact: true }).count()) > 0;
      return (checked && matched && waiting) || undefined;
    },
    { timeoutMs: FACE_CHECKS_WAIT_MS, what: 'the photos checked again with 30 usable, the selfie matched with the set and the review waiting' },
  );
  const verification = admin.getByTestId('verification');
  expect(await verification.getByTestId('verification-state').textContent()).toBe('ID verified');
  expect(await verification.getByTestId('name-finding').textContent()).toMatch(new RegExp(`^Name matches: Noa ${lastName} \\(`));
  expect(await verification.getByTestId('age-finding').textContent()).toMatch(/^18 or older on \d{1,2} \w+ \d{4}$/);
  expect(await verification.getByTestId('selfie-finding').textContent()).toMatch(/selfie matches the set · score \d\.\d\d, matches from \d\.\d\d/);
  expect(await verification.getByTestId('verification-attempts').getByRole('row').filter({ hasText: 'Verified' }).count()).toBe(1);
  // No gate is left: accepting asks for no reason.
  await admin.getByRole('button', { name: 'Accept', exact: true }).click();
  await admin.getByRole('dialog').getByText(`To: ${email}`).waitFor({ timeout: 30_000 });
  expect(await admin.getByTestId('identity-warning').count()).toBe(0);
  await admin.getByRole('button', { name: 'Cancel' }).click();
  // Stripe's selfie beside the set.
  await admin.getByRole('img', { name: 'The applicant’s selfie from the ID verification' }).waitFor({ timeout: 30_000 });
  expect(await admin.getByText('Replaced').count()).toBeGreaterThanOrEqual(2);
  // The whole application page: the gallery's badges, the status chips, the identity panels.
  expect(await seriousViolations(admin)).toEqual([]);
  await saveShots(admin, 'identity-review');
});
