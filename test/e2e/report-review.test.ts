import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { LicenseDownload } from '../../events/generations';
import { appealPath, REPORT_CATEGORY_LABELS, REPORTER_ROLE_LABELS, REVOCATION_REASONS, revokedText, SAME_REVIEWER_MESSAGE } from '../../events/report-values';
import { AdminReport, AppealAccepted, ReportCreated } from '../../events/reports';
import { enrolTotp, seedUser } from '../../infra/local/provision';
import { totpCode } from '../../infra/local/totp';
import { saveShots, seriousViolations } from '../support/a11y';
import { createAcceptedTalent } from '../support/accepted-talent';
import { gotoApp, onOwnNetwork, useBrowser } from '../support/browser';
import { eventually } from '../support/eventually';
import { approvedModelConfig } from '../support/live-model';
import { fileMarker } from '../support/marker';
import { adminGet, generateAs, newClient, signInToConsole } from '../support/review-console';
import { callApi, idToken, useTwin, type TestTwin } from '../support/twin';

// A misuse report from the site to a decision after appeal, on the twin, in Chromium
// (docs/product.md#reports-and-takedown): a client licenses an image of an accepted talent; a
// visitor reports a copy of it, re-encoded as JPEG, resized and cropped (no metadata left), on
// /report, and the report names the license; a reviewer revokes the license in the console with a
// statement of reasons; the license page says revoked; the client and the talent have their
// emails; the client appeals; the first reviewer cannot decide the appeal (the API's message shows),
// a second reviewer does. With SHOTS=<dir>, the queue and the case are saved at 1280 and 390 px.
jest.setTimeout(300_000);
const twin = useTwin();
const browser = useBrowser();
const marker = fileMarker('rr');
const PASSWORD = 'Report-Review-Passw0rd!';
const REASONS = `The reported copy is the licensed image used in an advertisement outside the license's scope (${marker}).`;
const APPEAL = `We used the image within the license: the page is our own editorial blog (${marker}).`;

async function admin(method: string, route: string, body: unknown): Promise<void> {
  const res = await callApi(twin(), await idToken(twin(), twin().admin.email, twin().admin.password), method, `/admin${route}`, body);
  if (res.status !== 200) throw new Error(`${method} /admin${route} answered ${res.status}: ${res.text}`);
}

/** The newest email to `address` whose text passes `test`, once it has arrived. */
function emailTo(address: string, test: (text: string) => boolean, what: string) {
  return eventually(
    async () => (await twin().emails()).filter((m) => m.to.includes(address) && test(`${m.subject}\n${m.text ?? m.html ?? ''}`)).at(-1),
    { timeoutMs: 60_000, what },
  );
}

/** A console page signed in as an admin with two-factor sign-in of its own key. */
async function signInAs(b: Browser, t: TestTwin, email: string, totpSecret: string): Promise<Page> {
  const context = await b.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(t.urls.admin);
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByLabel(/^Two-factor code/).fill(totpCode(totpSecret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  return page;
}

/** Decides the open case on the console page: the action, the statement of reasons, confirmed. */
async function decide(page: Page, action: RegExp, confirm: string, reasons: string) {
  await page.getByTestId('report-actions').getByRole('button', { name: action }).click({ timeout: 30_000 });
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/Statement of reasons/).fill(reasons);
  await dialog.getByRole('button', { name: confirm }).click();
}

it('a visitor reports a resized, cropped JPEG copy of a licensed image; a reviewer revokes it; the client appeals; a second reviewer decides', async () => {
  // An accepted talent with an account address, live for one generation, and a client's license of their image.
  const talentEmail = `talent.${marker}@people.example`;
  const talentId = `tal-${marker}`;
  await createAcceptedTalent(twin(), { email: talentEmail, talentId, firstName: 'Lena', lastName: marker, founding: false, marker, linked: true });
  await approvedModelConfig(twin(), talentId, marker);
  await admin('PATCH', `/talent/${talentId}`, { status: 'active' });
  const clientEmail = `client.${marker}@people.example`;
  const client = await newClient(twin(), clientEmail, `Nova Brands ${marker}`);
  const generation = await generateAs(twin(), client, { talentId, prompt: `A cyclist on a bridge at dawn ${marker}`, style: 'Lifestyle', count: 1 }).finally(() =>
    admin('PATCH', `/talent/${talentId}`, { status: 'hidden' }),
  );
  expect(generation.status).toBe('succeeded');
  const licenseId = generation.images[0].licenseId;
  const download = LicenseDownload.parse((await callApi(twin(), client, 'GET', `/licenses/${licenseId}/download`)).json);
  const original = Buffer.from(await (await fetch(download.url)).arrayBuffer());

  // The copy found elsewhere: 10% cropped off its edges, half the size, JPEG at quality 60, no metadata.
  const { width, height } = await sharp(original).metadata();
  const copy = await sharp(original)
    .extract({ left: Math.round(width! * 0.05), top: Math.round(height! * 0.05), width: Math.round(width! * 0.9), height: Math.round(height! * 0.9) })
    .resize({ width: Math.round(width! * 0.45) })
    .jpeg({ quality: 60 })
    .toBuffer();
  const copyMeta = await sharp(copy).metadata();
  expect({ format: copyMeta.format, xmp: copyMeta.xmp, exif: copyMeta.exif }).toEqual({ format: 'jpeg', xmp: undefined, exif: undefined });

  // A visitor reports it on /report: the file is matched as it is chosen, then the report is sent.
  const reporterEmail = `reporter.${marker}@people.example`;
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  await onOwnNetwork(context, twin().urls.cognito);
  const site = await context.newPage();
  const errors: string[] = [];
  site.on('pageerror', (e) => errors.push(e.message));
  await gotoApp(site, `${twin().urls.web}/report`);
  const form = site.getByTestId('report-form');
  await form.waitFor({ timeout: 30_000 });
  // A choice is a card whose label covers it: a person clicks the card's words.
  const choose = async (label: string) => {
    await form.locator('label').getByText(label, { exact: true }).click();
    expect(await form.getByRole('radio', { name: label, exact: true }).isChecked()).toBe(true);
  };
  await choose(REPORT_CATEGORY_LABELS['outside-license']);
  await form.getByTestId('report-file-input').setInputFiles({ name: 'found-on-a-billboard.jpg', mimeType: 'image/jpeg', buffer: copy });
  const chosen = form.getByTestId('report-file');
  await eventually(async () => (await chosen.getAttribute('data-state')) !== 'sending', { timeoutMs: 60_000, what: 'the chosen file to be sent and checked' });
  expect({ state: await chosen.getAttribute('data-state'), text: await chosen.textContent() }).toEqual({ state: 'sent', text: expect.any(String) });
  const matched = chosen.getByTestId('report-match');
  expect(await matched.getAttribute('data-verdict')).toBe('ours');
  expect(await matched.getAttribute('data-license-id')).toBe(licenseId);
  await form.getByLabel(/Web address \(URL\)/).fill('https://billboards.example/campaign/spring');
  await form.getByLabel(/Explain what is wrong and why/).fill(`This image runs in a paid billboard campaign, which its license does not cover (${marker}).`);
  await choose(REPORTER_ROLE_LABELS['someone-else']);
  await form.getByLabel(/Your full name/).fill('Robin Reporter');
  await form.getByLabel(/Your email/).fill(reporterEmail);
  await form.getByRole('checkbox', { name: /in good faith/ }).check();
  await form.getByLabel(/^Signature/).fill('Robin Reporter');
  const [posted] = await Promise.all([
    site.waitForResponse((r) => r.url() === `${twin().urls.api}/reports` && r.request().method() === 'POST', { timeout: 30_000 }),
    form.getByTestId('report-submit').click(),
  ]);
  expect(posted.status()).toBe(201);
  const created = ReportCreated.parse(await posted.json());
  expect(created.match).toMatchObject({ verdict: 'ours', licenseId, how: 'perceptual' });
  const sent = site.getByTestId('report-sent');
  await sent.getByTestId('report-reference').getByText(created.reference).waitFor({ timeout: 15_000 });
  expect(await sent.getByTestId('report-sent-match').getAttribute('data-license-id')).toBe(licenseId);
  const { reference } = created;
  await emailTo(reporterEmail, (t) => t.includes(reference), 'the reporter’s confirmation');

  // The reviewer's queue: the case with its match and its timer; the case page names license, client and talent.
  const reviewer = await signInToConsole(browser(), twin(), twin().admin.email, twin().admin.password);
  await reviewer.getByRole('menuitem', { name: 'Reports' }).click({ timeout: 30_000 });
  await reviewer.getByRole('combobox', { name: 'Status' }).click();
  await reviewer.getByRole('option', { name: 'Open' }).click();
  const row = reviewer.getByRole('row').filter({ hasText: reference });
  await row.waitFor({ timeout: 30_000 });
  expect(await row.getByTestId('report-match').textContent()).toContain(licenseId);
  expect(await row.getByTestId('sla-timer').textContent()).toMatch(/^due in (6 d 23 h|7 d)$/);
  expect(await seriousViolations(reviewer, { afterLoading: true })).toEqual([]);
  await saveShots(reviewer, 'report-queue');
  await row.click();
  const match = reviewer.getByTestId('report-match-detail');
  await match.getByTestId('report-license').getByText(licenseId).waitFor({ timeout: 30_000 });
  expect(await match.getByTestId('report-client').textContent()).toBe(`Nova Brands ${marker}`);
  expect(await match.textContent()).toContain(`Lena ${marker}`);
  // Reported addresses are plain text, never links; the file shows through a short-lived URL.
  expect(await reviewer.getByTestId('report-urls').getByRole('link').count()).toBe(0);
  const file = reviewer.getByTestId('report-file').getByRole('img');
  expect(await file.getAttribute('src')).toMatch(/X-Amz-Expires=\d+/);
  await eventually(() => file.evaluate((i) => (i as HTMLImageElement).naturalWidth > 0), { timeoutMs: 30_000, what: 'the reported file to show' });
  expect(await seriousViolations(reviewer, { afterLoading: true })).toEqual([]);
  await saveShots(reviewer, 'report-case');

  // Revoked with a statement of reasons.
  await decide(reviewer, /^Revoke the license$/, 'Revoke license', REASONS);
  await reviewer.getByText('License revoked.').waitFor({ timeout: 30_000 });
  await reviewer.getByTestId('report-decisions').getByText(REASONS).waitFor({ timeout: 30_000 });
  expect(await reviewer.getByTestId('report-status').textContent()).toBe('Decided');
  const decided = AdminReport.parse((await adminGet(twin(), `/reports/${reference}`)).json);
  expect(decided.license?.revokedAt).toBeDefined();

  // The license page says revoked, with the public reason (never the statement).
  await gotoApp(site, `${twin().urls.web}/licenses/${licenseId}`);
  await site.getByText(revokedText(decided.license!.revokedAt!, REVOCATION_REASONS['outside-license'])).waitFor({ timeout: 30_000 });
  expect(await site.locator('body').textContent()).not.toContain(REASONS);
  expect(errors).toEqual([]);

  // The client has the statement of reasons and the way to appeal; the talent, the outcome.
  const toClient = await emailTo(clientEmail, (t) => t.includes(reference) && t.includes(REASONS), 'the client’s statement of reasons');
  expect(`${toClient.text ?? toClient.html}`).toContain(appealPath(reference));
  // The talent was told of the report when it came in, and of its outcome now.
  await eventually(async () => (await twin().emails()).filter((m) => m.to.includes(talentEmail) && `${m.subject}\n${m.text ?? m.html}`.includes(reference)).length >= 2, {
    timeoutMs: 60_000,
    what: 'the talent’s emails about the report and its outcome',
  });

  // The client appeals; the first reviewer may not decide the appeal, and the console shows why.
  const appealed = await callApi(twin(), client, 'POST', `/reports/${reference}/appeal`, { statement: APPEAL });
  expect(appealed.status).toBeLessThan(300);
  expect(AppealAccepted.parse(appealed.json).status).toBe('appealed');
  await reviewer.reload();
  await reviewer.getByTestId('appeal-statement').getByText(APPEAL).waitFor({ timeout: 30_000 });
  expect(await reviewer.getByTestId('appeal-reviewer-rule').textContent()).toContain(twin().admin.email);
  await decide(reviewer, /^Dismiss$/, 'Dismiss report', 'Upheld on appeal by the same reviewer, which the rules forbid.');
  await reviewer.getByTestId('decision-error').getByText(SAME_REVIEWER_MESSAGE).waitFor({ timeout: 30_000 });
  await reviewer.context().close();

  // A second reviewer decides it.
  const second = `second.${marker}@humanly.local`;
  await seedUser(twin().urls.cognito, twin().userPoolId, { email: second, password: PASSWORD, groups: ['admin'] });
  const secret = await enrolTotp(twin().urls.cognito, twin().clientIds.admin, { email: second, password: PASSWORD });
  const other = await signInAs(browser(), twin(), second, secret);
  await other.getByRole('menuitem', { name: 'Reports' }).waitFor({ timeout: 30_000 });
  await other.goto(`${twin().urls.admin}/#/reports/${reference}/show`);
  await other.getByTestId('appeal-statement').getByText(APPEAL).waitFor({ timeout: 30_000 });
  await saveShots(other, 'report-appeal');
  const secondReasons = `On appeal: the billboard campaign is advertising, which the license does not cover (${marker}).`;
  await decide(other, /^Revoke the license$/, 'Revoke license', secondReasons);
  await other.getByTestId('report-decisions').getByText(secondReasons).waitFor({ timeout: 30_000 });
  const closed = AdminReport.parse((await adminGet(twin(), `/reports/${reference}`)).json);
  expect(closed.status).toBe('closed');
  expect(closed.decisions.map((d) => [d.action, d.by])).toEqual([
    ['revoke-license', twin().admin.email],
    ['revoke-license', second],
  ]);
  await other.context().close();
  await context.close();
});
