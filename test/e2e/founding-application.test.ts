import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import type { ListResponse } from '../../events/admin';
import type { ApplicationSummary } from '../../events/founding';
import { CONFIRMATION_MESSAGES, FOUNDING_MESSAGES } from '../../events/founding-values';
import { gotoApp, useBrowser } from '../support/browser';
import { eventually } from '../support/eventually';
import { idToken, postJson, useTwin } from '../support/twin';
import { seriousViolations } from '../support/a11y';

// A twin of its own: the banner counts founding spots from 30 of 30, and the test takes one.
const twin = useTwin({ own: true });
const browser = useBrowser();
let dir: string;
/** 30 real photos, 800x1000, each different: what the workflow validates and re-encodes. */
let photos: string[];
/** 81 small JPEGs, only ever counted by the browser. */
let small: string[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'founding-e2e-'));
  photos = await Promise.all(
    Array.from({ length: 30 }, async (_, i) => {
      const file = path.join(dir, `photo-${String(i + 1).padStart(2, '0')}.jpg`);
      await sharp({ create: { width: 800, height: 1000, channels: 3, background: { r: (i * 37) % 256, g: 120, b: (i * 91) % 256 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
        .jpeg({ quality: 70 })
        .toFile(file);
      return file;
    }),
  );
  small = await Promise.all(
    Array.from({ length: 81 }, async (_, i) => {
      const file = path.join(dir, `small-${i + 1}.jpg`);
      await sharp({ create: { width: 64, height: 80, channels: 3, background: { r: i, g: 200 - i, b: 90 } } }).jpeg().toFile(file);
      return file;
    }),
  );
}, 120_000);

afterAll(async () => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 30_000);

async function openForm(): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
  // Record every stage the progress dialog shows, however briefly.
  await page.addInitScript(() => {
    const seen: string[] = ((window as RecordedDialog).__stages = []);
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="submission-stage"]')?.textContent;
      if (text && seen[seen.length - 1] !== text) seen.push(text);
      if (document.querySelector('dialog[open][data-testid="submission-dialog"]')) (window as RecordedDialog).__dialogSeen = true;
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await gotoApp(page, `${twin().urls.web}/founding-talent-application`);
  await page.getByTestId('founding-form').waitFor();
  return { page, errors, requests };
}

async function fillDetails(page: Page, email: string, age = '29') {
  const form = page.getByTestId('founding-form');
  await form.getByLabel('First name').fill('Amara');
  await form.getByLabel('Last name').fill('Okafor');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Phone').fill('+44 20 7946 0000');
  await form.getByRole('spinbutton', { name: 'Age' }).fill(age);
  await form.getByLabel('Location').fill('Lagos, Nigeria');
  await form.getByLabel('Tell us about yourself').fill('Lifestyle model and content creator for six years.');
  await form.getByLabel('Portfolio or social links').fill('instagram.com/amara');
  await form.getByLabel('Why do you want to be founding talent?').fill('I want a say in how my likeness is used.');
  await form.getByLabel('Alcohol').check();
}

const alert = (page: Page) => page.getByTestId('founding-form').getByRole('alert');
const imageCount = (page: Page) => page.getByTestId('image-count');

/** What the init script records on the page's window. */
type RecordedDialog = Window & { __stages?: string[]; __dialogSeen?: boolean };

async function adminGet(pathAndQuery: string, token: string) {
  const res = await fetch(`${twin().urls.api}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, json: (await res.json().catch(() => undefined)) as ListResponse<ApplicationSummary> | undefined };
}

const APPLICANT = 'amara.okafor@example.com';

describe('founding talent application in the browser', () => {
  it('shows the founding spots left, and nothing when the count cannot be read', async () => {
    const { page } = await openForm();
    await page.getByTestId('spots-left-banner').waitFor();
    expect(await page.getByTestId('spots-left-banner').textContent()).toContain('30 of 30 founding spots left');

    const context = await browser().newContext();
    const failing = await context.newPage();
    await failing.route('**/founding-spots', (route) => route.fulfill({ status: 500, body: '{"error":"down"}' }));
    const refused = failing.waitForResponse('**/founding-spots');
    await gotoApp(failing, `${twin().urls.web}/founding-talent-application`);
    await refused;
    // The page has had the refusal; let it render once before looking.
    await failing.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await failing.getByTestId('spots-left-banner').count()).toBe(0);
    // The banner keeps the count's place (so the page does not move) but shows and announces nothing.
    expect(await failing.getByText(/founding spots left/).filter({ visible: true }).count()).toBe(0);
    expect(await failing.getByText(/founding spots left/).getAttribute('aria-hidden')).toBe('true');
    await context.close();
  }, 60_000);

  it('alerts with the spec texts and sends nothing while the application is incomplete', async () => {
    const { page, requests } = await openForm();
    const form = page.getByTestId('founding-form');
    const submit = form.getByTestId('founding-submit');
    await fillDetails(page, 'checks@example.com', '17');

    // Terms unticked: the button is disabled for assistive technology, and Enter explains why.
    expect(await submit.getAttribute('aria-disabled')).toBe('true');
    await form.getByLabel('Email').press('Enter');
    await alert(page).filter({ hasText: FOUNDING_MESSAGES.termsRequired }).waitFor();
    // Focus moves to the alert, so keyboard and screen-reader users land on it.
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'alert', undefined, { timeout: 5000 });

    await form.getByLabel(/I agree to the Terms of Service/).check();
    expect(await submit.getAttribute('aria-disabled')).toBe('false');
    await submit.click();
    await alert(page).filter({ hasText: FOUNDING_MESSAGES.underAge }).waitFor();

    await form.getByRole('spinbutton', { name: 'Age' }).fill('29');
    await form.locator('input[type=file]').setInputFiles(small.slice(0, 29));
    await imageCount(page).filter({ hasText: '29 images selected' }).waitFor();
    expect(await page.getByTestId('photo-tile').count()).toBe(29);
    await submit.click();
    await alert(page).filter({ hasText: FOUNDING_MESSAGES.tooFewImages }).waitFor();

    await form.locator('input[type=file]').setInputFiles(small.slice(29));
    await imageCount(page).filter({ hasText: '81 images selected' }).waitFor();
    await submit.click();
    await alert(page).filter({ hasText: 'Please upload no more than 80 images. You currently have 81 images selected.' }).waitFor();

    // The form with 81 thumbnails and an alert showing is still accessible.
    expect(await seriousViolations(page, { include: '[data-testid="founding-form"]' })).toEqual([]);

    // Remove one: its thumbnail goes and the count follows.
    await page.getByRole('button', { name: 'Remove small-5.jpg' }).click();
    await imageCount(page).filter({ hasText: '80 images selected' }).waitFor();
    expect(await page.getByRole('button', { name: 'Remove small-5.jpg' }).count()).toBe(0);

    await form.getByLabel('Email').fill('not-an-email');
    await submit.click();
    await form.getByText(FOUNDING_MESSAGES.invalidEmail).waitFor();

    expect(requests.filter((r) => r.startsWith('POST /founding'))).toEqual([]);
  }, 90_000);

  it('uploads 30 photos, submits, and the application reaches review, acceptance and its emails', async () => {
    const { page, errors, requests } = await openForm();
    const form = page.getByTestId('founding-form');
    await fillDetails(page, `  ${APPLICANT.toUpperCase()} `);
    await form.locator('input[type=file]').setInputFiles(photos);
    await imageCount(page).filter({ hasText: '30 images selected' }).waitFor();
    expect(await page.locator('.photo-tile__thumb[src^="blob:"]').count()).toBe(30);
    await form.getByLabel(/I agree to the Terms of Service/).check();
    await form.getByTestId('founding-submit').click();

    await page.getByTestId('submission-dialog').waitFor();
    expect(await page.getByTestId('submission-dialog').getByText(FOUNDING_MESSAGES.doNotClose).count()).toBe(1);
    await page.waitForURL(/\/thank-you\?type=founding-model$/, { timeout: 60_000 });
    await page.getByRole('heading', { name: 'Thank You for Applying' }).waitFor();
    expect(await page.evaluate(() => (window as RecordedDialog).__dialogSeen)).toBe(true);
    expect(await page.evaluate(() => (window as RecordedDialog).__stages)).toEqual(['Uploading images', 'Submitting application', 'Almost done']);
    expect(requests.filter((r) => r === 'POST /founding-uploads')).toHaveLength(1);
    expect(requests.filter((r) => r.startsWith('PUT '))).toHaveLength(30);
    expect(requests.filter((r) => r === 'POST /founding-talent-signup')).toHaveLength(1);
    expect(errors).toEqual([]);
    // The thank-you page tells the applicant to confirm their address (decision 013).
    await page.getByTestId('confirm-email-notice').filter({ hasText: CONFIRMATION_MESSAGES.checkEmail }).waitFor();

    // The application counts once the address is confirmed: follow the emailed link, as the applicant does.
    const addressEmail = await eventually(async () => (await twin().emails()).find((m) => m.to.includes(APPLICANT) && /Confirm your email/.test(m.subject)), {
      timeoutMs: 90_000,
      what: 'the address confirmation email',
    });
    const link = /(http\S+\/thank-you\?type=founding-confirm#token=[A-Za-z0-9_-]+)/.exec(addressEmail.text ?? '')![1];
    await page.goto(link);
    // Opening the link changes nothing until the button is pressed.
    await page.getByTestId('confirm-button').waitFor();
    expect(requests.filter((r) => r === 'POST /founding-confirm')).toHaveLength(0);
    await page.getByTestId('confirm-button').click();
    await page.getByTestId('confirm-result').filter({ hasText: CONFIRMATION_MESSAGES.confirmed }).waitFor({ timeout: 30_000 });
    expect(requests.filter((r) => r === 'POST /founding-confirm')).toHaveLength(1);

    // The proof of person: the face data consent first (declined here: the photos are reviewed
    // by hand), then the consent signed with the name applied with, then the ID verification.
    await page.getByTestId('face-consent-step').waitFor({ timeout: 30_000 });
    await page.getByRole('radio', { name: /No: review my photos by hand/ }).check();
    await page.getByTestId('face-consent-continue').click();
    await page.getByTestId('sign-step').waitFor();
    await page.getByRole('textbox', { name: 'Your full name' }).fill('Amara Okafor');
    await page.getByTestId('sign-button').click();
    // Then the ID verification with Stripe: the document alone, without face checks (not done here).
    const verify = page.getByTestId('verify-step');
    await verify.getByRole('heading', { name: 'Verify your ID' }).waitFor({ timeout: 30_000 });
    expect(await verify.getByText('then a selfie').count()).toBe(0);

    // The workflow validates the photos and emails the applicant.
    const confirmation = await eventually(async () => {
      await twin().idle();
      return (await twin().emails()).find((m) => m.to.includes(APPLICANT) && /received your founding talent application/.test(m.subject));
    }, { timeoutMs: 90_000, what: 'the confirmation email' });
    expect(confirmation.subject).toBeTruthy();

    const token = await idToken(twin(), twin().admin.email, twin().admin.password);
    const waiting = await eventually(async () => {
      const { json } = await adminGet('/admin/applications?status=pending_review', token);
      return json?.items?.find((a) => a.email === APPLICANT);
    }, { timeoutMs: 90_000, what: 'the application waiting for review' });
    expect(waiting).toMatchObject({ program: 'founding', firstName: 'Amara', lastName: 'Okafor', location: 'Lagos, Nigeria', age: 29, excludedIndustries: ['alcohol'] });
    expect(waiting.validPhotoCount ?? waiting.imageCount).toBe(30);

    const decided = await postJson(`${twin().urls.api}/admin/applications/${waiting.id}/decision`, {
        decision: 'accept',
        note: 'Great range of photos.',
        // No ID verified on this application: accepting past the gates takes a reason and a named second proof.
        identityReason: 'The ID was checked by hand in this test.',
        secondProof: 'Video call on 2 December with the applicant, ID shown on camera',
      }, { authorization: `Bearer ${token}` });
    expect(decided.status).toBe(202);
    const acceptance = await eventually(async () => {
      await twin().idle();
      const mine = (await twin().emails()).filter((m) => m.to.includes(APPLICANT) && !/Confirm your email|received your/.test(m.subject));
      return mine.find((m) => /accept|welcome|congrat/i.test(`${m.subject} ${m.text}`));
    }, { timeoutMs: 90_000, what: 'the acceptance email' });
    expect(acceptance).toBeDefined();

    // One founding spot is now taken.
    const { page: again } = await openForm();
    await again.getByTestId('spots-left-banner').filter({ hasText: '29 of 30 founding spots left' }).waitFor();
  }, 240_000);

  it('tells a second application from the same address that each person applies once', async () => {
    const { page } = await openForm();
    const form = page.getByTestId('founding-form');
    await fillDetails(page, APPLICANT);
    await form.locator('input[type=file]').setInputFiles(small.slice(0, 30));
    await imageCount(page).filter({ hasText: '30 images selected' }).waitFor();
    await form.getByLabel(/I agree to the Terms of Service/).check();
    await form.getByTestId('founding-submit').click();
    await alert(page).filter({ hasText: FOUNDING_MESSAGES.duplicateAlert }).waitFor({ timeout: 60_000 });
    expect(page.url()).toContain('/founding-talent-application');
    expect(await page.getByTestId('submission-dialog').count()).toBe(0);
  }, 120_000);

  it('sends a standard application from /talent-application through the same pipeline', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await gotoApp(page, `${twin().urls.web}/talent-application`);
    const form = page.getByTestId('talent-application-form');
    await form.getByLabel('Full name').fill('Lena Park');
    await form.getByLabel('Email').fill('lena.park@example.com');
    await form.getByRole('spinbutton', { name: 'Age' }).fill('34');
    await form.getByLabel('Location').fill('Seoul, South Korea');
    await form.getByLabel('Why do you want to join?').fill('To be paid fairly for my likeness.');
    await form.getByLabel(/I consent to/).check();
    await form.getByLabel(/I agree to the Terms of Service/).check();
    await form.getByTestId('talent-application-submit').click();
    await form.getByRole('alert').filter({ hasText: FOUNDING_MESSAGES.tooFewImages }).waitFor();

    await form.locator('input[type=file]').setInputFiles(photos);
    await form.getByTestId('image-count').filter({ hasText: '30 images selected' }).waitFor();
    await form.getByTestId('talent-application-submit').click();
    await page.getByTestId('submission-dialog').waitFor();
    await page.getByRole('heading', { name: 'Application Submitted!' }).waitFor({ timeout: 60_000 });
    await page.getByText(/Please confirm your address with the link we sent to/).waitFor();

    // Listed for review once the address is confirmed through the emailed link (decision 013).
    const addressEmail = await eventually(async () => (await twin().emails()).find((m) => m.to.includes('lena.park@example.com') && /Confirm your email/.test(m.subject)), {
      timeoutMs: 90_000,
      what: 'the address confirmation email',
    });
    expect(addressEmail.subject).toContain('talent application');
    await page.goto(/(http\S+\/thank-you\?type=founding-confirm#token=[A-Za-z0-9_-]+)/.exec(addressEmail.text ?? '')![1]);
    await page.getByTestId('confirm-button').click();
    await page.getByTestId('confirm-result').waitFor({ timeout: 30_000 });

    const token = await idToken(twin(), twin().admin.email, twin().admin.password);
    const application = await eventually(async () => {
      const { json } = await adminGet('/admin/applications?program=standard', token);
      return json?.items?.find((a) => a.email === 'lena.park@example.com');
    }, { timeoutMs: 90_000, what: 'the standard application' });
    expect(application).toMatchObject({ program: 'standard', firstName: 'Lena', lastName: 'Park', age: 34 });
    await context.close();
  }, 120_000);

  it('stops on a failed upload with the spec alert, retries that file, and never sends an uploaded file twice', async () => {
    const { page, requests } = await openForm();
    const form = page.getByTestId('founding-form');
    let failed = false;
    // Once the alert shows, the next PUT (the retry's) is held until the applicant has submitted
    // again: a submit made while a retry is still sending must wait for it, not send the file again.
    let hold = false;
    let held: (() => void) | undefined;
    let sawHeld: () => void = () => undefined;
    const heldSeen = new Promise<void>((resolve) => (sawHeld = resolve));
    await page.route(
      (url) => url.pathname.includes('/pending/'),
      (route) => {
        if (route.request().method() !== 'PUT') return route.continue();
        if (hold) {
          hold = false;
          held = () => void route.continue();
          sawHeld();
          return undefined;
        }
        if (failed) return route.continue();
        failed = true;
        return route.fulfill({
          status: 503,
          headers: { 'access-control-allow-origin': '*', 'content-type': 'application/xml' },
          body: '<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>',
        });
      },
    );
    await fillDetails(page, 'retry.me@example.com');
    await form.locator('input[type=file]').setInputFiles(small.slice(0, 30));
    await imageCount(page).filter({ hasText: '30 images selected' }).waitFor();
    await form.getByLabel(/I agree to the Terms of Service/).check();
    await form.getByTestId('founding-submit').click();

    const shown = alert(page).filter({ hasText: /^Failed to upload small-\d+\.jpg: Please reduce your request rate\./ });
    await shown.waitFor({ timeout: 30_000 });
    const name = /Failed to upload (small-\d+\.jpg)/.exec((await shown.textContent()) ?? '')![1];
    expect(page.url()).toContain('/founding-talent-application');
    expect(requests.filter((r) => r === 'POST /founding-talent-signup')).toHaveLength(0);

    hold = true;
    await page.getByRole('button', { name: `Retry uploading ${name}` }).click();
    await page.getByRole('button', { name: `Retry uploading ${name}` }).waitFor({ state: 'detached' });
    await heldSeen;
    await form.getByTestId('founding-submit').click();
    await page.getByTestId('submission-dialog').waitFor();
    held!();
    await page.waitForURL(/\/thank-you\?type=founding-model$/, { timeout: 60_000 }).catch(async (err) => {
      throw new Error(`${err.message}; alerts: ${(await alert(page).allTextContents()).join(' | ')}; requests: ${requests.filter((r) => !r.startsWith('GET')).join(', ')}`);
    });
    // 30 files, one of them twice (the failed attempt and its retry): nothing uploaded was sent again.
    const puts = requests.filter((r) => r.startsWith('PUT '));
    expect(puts.filter((r, i) => puts.indexOf(r) !== i)).toEqual([]);
    expect(puts).toHaveLength(31);
    expect(requests.filter((r) => r === 'POST /founding-talent-signup')).toHaveLength(1);
  }, 120_000);

  it('counts the photos inside a zip in the browser', async () => {
    const { page, requests } = await openForm();
    const zip = path.join(dir, 'photos.zip');
    const jpeg = fs.readFileSync(small[0]);
    fs.writeFileSync(
      zip,
      zipSync({
        'shoot/one.jpg': jpeg,
        'shoot/two.JPEG': jpeg,
        'shoot/three.png': jpeg,
        'shoot/notes.txt': new TextEncoder().encode('not a photo'),
        '__MACOSX/shoot/._one.jpg': jpeg,
        'shoot/.hidden.jpg': jpeg,
      }),
    );
    await page.getByTestId('founding-form').locator('input[type=file]').setInputFiles([zip, small[1]]);
    await imageCount(page).filter({ hasText: '4 images selected' }).waitFor();
    expect(await page.getByTestId('photo-tile').filter({ hasText: 'photos.zip' }).textContent()).toContain('3 photos');
    expect(requests.some((r) => /fflate|zipCount/.test(r))).toBe(true);
  }, 60_000);
});
