import * as fs from 'node:fs';
import sharp from 'sharp';
import { LicenseDownload } from '../../events/generations';
import { NOT_OURS_MESSAGE, REPORT_REFERENCE_PATTERN, URL_NOT_PUBLIC_MESSAGE } from '../../events/report-values';
import { seedUser } from '../../infra/local/provision';
import { saveShots, seriousViolations } from '../support/a11y';
import { createAcceptedTalent } from '../support/accepted-talent';
import { gotoApp, onOwnNetwork, useBrowser } from '../support/browser';
import { approvedModelConfig } from '../support/live-model';
import { fileMarker } from '../support/marker';
import { generateAs, newClient } from '../support/review-console';
import { callApi, idToken, useTwin } from '../support/twin';

// "Is this me?" in the talent portal, on the twin, in Chromium (docs/product.md#reports-and-takedown):
// an accepted talent checks an image that is not ours ("Not made on Humanly"), an address on a
// private network (refused, the field says why), and a delivered image of their own likeness (its
// license, its client, "of you"); downloads the takedown notice for where they found it, whose text
// names them and the address; and opens a report from the answer, prefilled with the license and
// their role; on the report form, an intimate image asks for its statements, a private address is
// refused on its row, and the sent report is due in 48 hours. With SHOTS=<dir>, the answer and the
// report form (prefilled, with its errors, sent) are saved at 1280 and 390 px.
jest.setTimeout(240_000);
const twin = useTwin();
const browser = useBrowser();
const marker = fileMarker('tc');
const PASSWORD = 'Talent-Check-Passw0rd!';

async function admin(method: string, route: string, body: unknown): Promise<void> {
  const res = await callApi(twin(), await idToken(twin(), twin().admin.email, twin().admin.password), method, `/admin${route}`, body);
  if (res.status !== 200) throw new Error(`${method} /admin${route} answered ${res.status}: ${res.text}`);
}

it('a talent checks an image that is not ours and one of theirs that is, downloads a takedown notice and opens a prefilled report', async () => {
  // An accepted talent with an account, live for one generation, and a client's license of their image.
  const email = `checker.${marker}@people.example`;
  const talentId = `chk-${marker}`;
  const talentName = `Mira ${marker}`;
  await createAcceptedTalent(twin(), { email, talentId, firstName: 'Mira', lastName: marker, founding: false, marker, linked: true });
  await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['talent'], name: talentName, attributes: { 'custom:role': 'talent' } });
  await approvedModelConfig(twin(), talentId, marker);
  await admin('PATCH', `/talent/${talentId}`, { status: 'active' });
  const clientName = `Orbit Outfitters ${marker}`;
  const client = await newClient(twin(), `client.${marker}@people.example`, clientName);
  const generation = await generateAs(twin(), client, { talentId, prompt: `A climber at a crag at dusk ${marker}`, style: 'Lifestyle', count: 1 }).finally(() =>
    admin('PATCH', `/talent/${talentId}`, { status: 'hidden' }),
  );
  expect(generation.status).toBe('succeeded');
  const licenseId = generation.images[0].licenseId;
  const download = LicenseDownload.parse((await callApi(twin(), client, 'GET', `/licenses/${licenseId}/download`)).json);
  const delivered = Buffer.from(await (await fetch(download.url)).arrayBuffer());
  // An image we never made: a landscape of stripes, nothing like a portrait.
  const stripes = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400">${Array.from({ length: 10 }, (_, i) => `<rect y="${i * 40}" width="640" height="40" fill="hsl(${i * 36},70%,50%)"/>`).join('')}</svg>`;
  const notOurs = await sharp(Buffer.from(stripes)).jpeg({ quality: 80 }).toBuffer();

  const context = await browser().newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await onOwnNetwork(context, twin().urls.cognito);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await gotoApp(page, `${twin().urls.web}/sign-in?next=%2Ftalent-portal`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/talent-portal$/, { timeout: 30_000 });

  const card = page.getByTestId('likeness-check');
  await card.waitFor({ timeout: 20_000 });
  const answer = card.getByTestId('likeness-check-answer');

  // Not ours.
  await card.getByTestId('likeness-check-file').setInputFiles({ name: 'found-on-a-forum.jpg', mimeType: 'image/jpeg', buffer: notOurs });
  await answer.and(page.locator('[data-verdict="not-ours"]')).waitFor({ timeout: 30_000 });
  expect(await answer.textContent()).toContain(NOT_OURS_MESSAGE);

  // An address on a private network: the server refuses it, and the field says why.
  await card.getByLabel('The image’s web address').fill('http://127.0.0.1:9/private.png');
  await card.getByRole('button', { name: 'Check', exact: true }).click();
  await card.getByText(`This address ${URL_NOT_PUBLIC_MESSAGE}`).waitFor({ timeout: 30_000 });

  // A delivered image of their own likeness: the license, the client, "of you".
  await card.getByTestId('likeness-check-file').setInputFiles({ name: 'found-in-an-ad.png', mimeType: 'image/png', buffer: delivered });
  await answer.and(page.locator('[data-verdict="ours"]')).waitFor({ timeout: 30_000 });
  expect(await answer.getByTestId('likeness-check-license').textContent()).toBe(licenseId);
  expect(await answer.getByTestId('likeness-check-client').textContent()).toBe(clientName);
  expect(await answer.textContent()).toContain('a licensed Humanly image of you');
  expect(await seriousViolations(page)).toEqual([]);
  await card.scrollIntoViewIfNeeded();
  await saveShots(page, 'talent-likeness-check');

  // The takedown notice for where it was found: named after the day, naming the talent and the address.
  const where = `https://ads.example/${marker}/spring-campaign`;
  await answer.getByLabel('Where is the image shown?').fill(where);
  const [notice] = await Promise.all([page.waitForEvent('download'), answer.getByTestId('likeness-check-notice').click()]);
  expect(notice.suggestedFilename()).toMatch(/^takedown-notice-\d{4}-\d{2}-\d{2}\.txt$/);
  const text = fs.readFileSync(await notice.path(), 'utf8');
  expect(text).toContain(`Location of the content: ${where}`);
  expect(text).toContain(`From: ${talentName}`);
  expect(text).toContain('Digital Services Act');

  // A report to us, prefilled with the license and the talent as the reporter.
  await answer.getByTestId('likeness-check-report').click();
  await page.waitForURL(/\/report\?/, { timeout: 20_000 });
  const form = page.getByTestId('report-form');
  await form.getByTestId('report-license').getByText(licenseId).waitFor({ timeout: 20_000 });
  expect(await form.getByLabel(/Explain what is wrong and why/).inputValue()).toContain(`/licenses/${licenseId}`);
  expect(await form.getByRole('radio', { name: 'I am the person shown' }).isChecked()).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  await saveShots(page, 'report-form-prefilled');

  // An intimate image: the TAKE IT DOWN statement is asked for, and the form says what is missing, field by field.
  await form.getByRole('radio', { name: 'Intimate or sexual content' }).check();
  await form.getByTestId('report-submit').click();
  await form.getByText('Confirm that the person shown did not consent').waitFor({ timeout: 20_000 });
  expect(await form.getByLabel(/Web address \(URL\)/).evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await form.getByLabel(/Web address \(URL\)/).getAttribute('aria-invalid')).toBe('true');
  expect(await form.getByLabel(/Your full name/).getAttribute('aria-invalid')).toBe('true');
  expect(await seriousViolations(page)).toEqual([]);
  await saveShots(page, 'report-form-errors');

  // Filled in, with an address on a private network: the server's 400 names the address's row.
  await form.getByLabel(/Web address \(URL\)/).fill('http://10.0.0.7/leak.jpg');
  await form.getByLabel(/Your full name/).fill(talentName);
  await form.getByLabel(/Your email/).fill(email);
  await form.getByRole('checkbox', { name: /did not consent/ }).check();
  await form.getByRole('checkbox', { name: /accurate and complete/ }).check();
  await form.getByLabel(/^Signature/).fill(talentName);
  await form.getByTestId('report-submit').click();
  await form.getByText(`This address ${URL_NOT_PUBLIC_MESSAGE}`).waitFor({ timeout: 20_000 });

  // The public address: the report is in, with its reference and a 48-hour deadline.
  await form.getByLabel(/Web address \(URL\)/).fill(where);
  await form.getByTestId('report-submit').click();
  const sent = page.getByTestId('report-sent');
  await sent.waitFor({ timeout: 20_000 });
  expect(await sent.getByTestId('report-reference').textContent()).toMatch(REPORT_REFERENCE_PATTERN);
  const due = Date.parse((await sent.getByTestId('report-due').locator('time').getAttribute('datetime'))!);
  expect(due - Date.now()).toBeGreaterThan(47 * 3600_000);
  expect(due - Date.now()).toBeLessThanOrEqual(48 * 3600_000);
  expect(await sent.textContent()).toContain('Reviewed within 48 hours');
  expect(await seriousViolations(page)).toEqual([]);
  await saveShots(page, 'report-sent');

  expect(errors).toEqual([]);
  await context.close();
});
