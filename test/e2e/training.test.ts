import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { FINAL_STATUSES, POLL_INTERVAL_MS } from '../../events/generation-values';
import { Generation, GenerationStarted } from '../../events/generations';
import { AdminTrainingsResponse } from '../../events/training';
import { SAMPLE_PROMPTS } from '../../events/training-values';
import { seriousViolations } from '../support/a11y';
import { gotoApp, useBrowser } from '../support/browser';
import { visibleText } from '../support/cognito-mail';
import { eventually } from '../support/eventually';
import { fileMarker } from '../support/marker';
import { adminGet, CLIENT_PASSWORD, newClient, signInToConsole, submitApplication, waitForStatus } from '../support/review-console';
import { callApi, idToken, useTwin } from '../support/twin';

// The likeness model in Chromium on the twin (docs/training.md, issue 26): a reviewer accepts an
// applicant in the console; the acceptance trains the talent's model on the Replicate emulator
// and emails them that it is ready for their review; the talent signs in with the invitation's
// temporary password, sees the model's state and its samples in the portal and approves; the
// talent is then listed in the library and on /create, where a client generates with them on
// the trained version (the version the console lists for the training). axe on the portal card.
// With SHOTS=<dir>, the portal card (ready for review, live) and the console's trainings are
// saved at phone and laptop widths.
jest.setTimeout(180_000);
const twin = useTwin();
const browser = useBrowser();
const run = fileMarker('trn');
const applicant = `likeness.${run}@talent.example`;
const PASSWORD = 'Own-Likeness-Passw0rd!';
const PROMPT = `Reading on a tram at dusk ${run}`;
const SHOTS = process.env.SHOTS;

/** With SHOTS=<dir>, saves one part of a page at a phone's and a laptop's width (`<name>-390.png`, `<name>-1280.png`). */
async function shoot(page: Page, part: Locator, name: string): Promise<void> {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  const before = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of [390, 1280]) {
    // As tall as the part, so Chromium draws all of it.
    await page.setViewportSize({ width, height: 900 });
    const height = Math.ceil((await part.boundingBox())?.height ?? 900) + 200;
    await page.setViewportSize({ width, height: Math.max(900, height) });
    await part.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), animations: 'disabled' });
  }
  await page.setViewportSize(before);
}

/** Waits until every image in `list` has loaded (scrolled to first: the samples load lazily); answers their natural widths. */
async function loadedWidths(list: Locator): Promise<number[]> {
  await list.scrollIntoViewIfNeeded();
  return eventually(
    async () => {
      const widths = await list.locator('img').evaluateAll((imgs) => imgs.map((i) => ((i as HTMLImageElement).complete ? (i as HTMLImageElement).naturalWidth : 0)));
      return widths.length > 0 && widths.every((w) => w > 0) && widths;
    },
    { timeoutMs: 15_000, what: 'the sample images to load' },
  );
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await gotoApp(page, `${twin().urls.web}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The talent the test puts live: hidden again at the end, as the other files read the library's three. */
let listedTalent: string | undefined;
afterAll(async () => {
  if (!listedTalent) return;
  const token = await idToken(twin(), twin().admin.email, twin().admin.password);
  const res = await fetch(`${twin().urls.api}/admin/talent/${listedTalent}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'hidden' }),
  });
  if (res.status !== 200) throw new Error(`hiding ${listedTalent} again answered ${res.status}`);
});

it('an accepted applicant\'s model trains, the talent approves it in the portal, and a client generates on the trained version', async () => {
  // The setup that is not the point, by the API: the application (30 generated photos, reviewed by
  // hand) waiting for review, the reviewer's console and a client with the Free plan's credits.
  const clientEmail = `client.${run}@people.example`;
  const [applicationId, console_, client] = await Promise.all([
    submitApplication(twin(), { email: applicant, firstName: 'Lumi', lastName: `Trained ${run}`, photos: 30, side: 640 }).then(async (id) => {
      await waitForStatus(twin(), id, 'pending_review', 120_000);
      return id;
    }),
    signInToConsole(browser(), twin(), twin().admin.email, twin().admin.password).then(async (page) => {
      await page.getByTestId('founding-value').waitFor({ timeout: 30_000 });
      return page;
    }),
    newClient(twin(), clientEmail, 'Cleo Client').then(async (token) => {
      const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await signIn(page, clientEmail, CLIENT_PASSWORD);
      await page.waitForURL(/\/client-portal$/, { timeout: 30_000 });
      return { page, token };
    }),
  ]);

  // 1. The reviewer accepts the applicant on the application's page.
  await console_.goto(`${twin().urls.admin}/#/applications/${applicationId}/show`);
  await console_.getByRole('button', { name: 'Accept', exact: true }).click();
  await console_.getByRole('dialog').getByText(`To: ${applicant}`).waitFor({ timeout: 30_000 });
  // No ID verified on this application: accepting past the gates takes a reason and a named second proof.
  await console_.getByRole('dialog').getByLabel('Why accept anyway').fill('The ID was checked by hand in this test.');
  await console_.getByRole('dialog').getByLabel('Second proof').fill('Video call on 2 December with the applicant, ID shown on camera');
  await console_.getByRole('button', { name: 'Accept application' }).click();
  await console_.getByText('Application accepted.').waitFor({ timeout: 30_000 });

  // 2. The training runs on the emulator: the talent is emailed that the model is ready for review.
  const mailTo = async (subject: RegExp) => (await twin().emails()).find((m) => m.to.includes(applicant) && subject.test(m.subject));
  const invitation = await eventually(() => mailTo(/talent account is ready/), { timeoutMs: 60_000, what: 'the invitation' });
  const temporary = /temporary password:\s*(\S+)/.exec(visibleText(invitation))?.[1];
  expect(temporary).toBeTruthy();
  const { talentId } = await waitForStatus(twin(), applicationId, 'accepted', 60_000);
  expect(talentId).toBeDefined();
  listedTalent = talentId;

  // 3. The talent signs in with the invitation (choosing their own password) while the model
  // trains. Meanwhile a visitor finds them neither in the library nor on /create: nothing is
  // generated before the talent approves.
  const portal = await (await browser().newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })).newPage();
  const [ready] = await Promise.all([
    (async () => {
      await signIn(portal, applicant, temporary!);
      await portal.getByLabel('New password', { exact: true }).fill(PASSWORD);
      await portal.getByRole('button', { name: 'Save and continue' }).click();
      await portal.waitForURL(/\/talent-portal$/, { timeout: 30_000 });
      return eventually(() => mailTo(/likeness model is ready for your review/), { timeoutMs: 90_000, what: 'the "ready for your review" email' });
    })(),
    (async () => {
      const visitor = await (await browser().newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      await gotoApp(visitor, `${twin().urls.web}/talent?q=${encodeURIComponent(run)}`);
      await visitor.getByTestId('library-empty').waitFor({ timeout: 30_000 });
      await gotoApp(visitor, `${twin().urls.web}/create?talent=${encodeURIComponent(talentId!)}`);
      await visitor.getByText('That talent is not available for generation.').waitFor({ timeout: 30_000 });
      await visitor.context().close();
    })(),
  ]);
  expect(visibleText(ready)).toContain('/talent-portal');

  // The portal shows the model ready for review with its samples, which load.
  await portal.reload();
  const card = portal.locator('[data-testid="likeness-model"][data-state]');
  await card.waitFor({ timeout: 30_000 });
  expect(await card.getAttribute('data-state')).toBe('ready-for-review');
  expect(await card.getByTestId('likeness-model-state').textContent()).toBe('Ready for your review');
  const samples = card.getByTestId('likeness-model-samples');
  const widths = await loadedWidths(samples);
  expect(widths).toHaveLength(SAMPLE_PROMPTS.length);
  expect(await samples.locator('img').first().getAttribute('alt')).toMatch(/^Preview 1 of 4 made by your model: /);
  // Each opens full size.
  expect(await samples.getByRole('link').first().getAttribute('href')).toBe(await samples.locator('img').first().getAttribute('src'));
  // 6. axe on the card, ready for review.
  expect(await seriousViolations(portal, { include: '[data-testid="likeness-model"]' })).toEqual([]);
  await shoot(portal, card, 'training-portal-ready');

  // The talent approves: the model is live.
  await card.getByTestId('likeness-model-approve').click();
  const dialog = portal.getByTestId('likeness-model-approve-dialog');
  await dialog.getByRole('heading', { name: 'Put your likeness live?' }).waitFor();
  await dialog.getByTestId('likeness-model-approve-confirm').click();
  await portal.locator('[data-testid="likeness-model"][data-state="live"]').waitFor({ timeout: 30_000 });
  expect(await card.getByTestId('likeness-model-state').textContent()).toBe('Live');
  await card.getByTestId('likeness-model-message').filter({ hasText: 'Your likeness is live' }).waitFor();
  await card.getByText('The samples of the version clients use now').click();
  expect(await loadedWidths(card.getByTestId('likeness-model-live-samples'))).toHaveLength(SAMPLE_PROMPTS.length);
  expect(await seriousViolations(portal, { include: '[data-testid="likeness-model"]' })).toEqual([]);
  await shoot(portal, card, 'training-portal-live');

  // The version the console records for the training, live now.
  const trainings = AdminTrainingsResponse.parse((await adminGet(twin(), `/talent/${talentId}/trainings`)).json);
  expect(trainings).toMatchObject({ state: 'live', trainings: [{ number: 1, reason: 'acceptance', status: 'approved', live: true }] });
  const version = trainings.trainings[0].version!.split(':')[1];
  expect(version).toMatch(/^[0-9a-f]{64}$/);

  await Promise.all([
    // The console's list of the talent's trainings: the live version, its photos, version and samples.
    (async () => {
      await console_.goto(`${twin().urls.admin}/#/talent/${talentId}`);
      const row = console_.getByTestId('training').filter({ has: console_.getByTestId('training-live') });
      await row.waitFor({ timeout: 30_000 });
      expect(await row.getAttribute('data-status')).toBe('approved');
      const details = console_.getByTestId('training-details');
      expect(await details.getByTestId('training-version').textContent()).toBe(trainings.trainings[0].version);
      expect(await loadedWidths(details.getByRole('list', { name: 'Samples of training #1' }))).toHaveLength(SAMPLE_PROMPTS.length);
      await shoot(console_, console_.getByTestId('trainings-section'), 'training-console');
    })(),
    (async () => {
      // 4. Listed in the library and on /create.
      await gotoApp(client.page, `${twin().urls.web}/talent?q=${encodeURIComponent(run)}`);
      await client.page.getByTestId('talent-card').getByRole('link', { name: `Lumi Trained ${run}` }).waitFor({ timeout: 30_000 });
      await gotoApp(client.page, `${twin().urls.web}/create?talent=${encodeURIComponent(talentId!)}`);
      await client.page.getByTestId('create-selected-talent').filter({ hasText: `Lumi Trained ${run}` }).waitFor({ timeout: 30_000 });

      // 5. The client generates one image with the talent. Once the generation has ended, the
      // page's clock moves to its next read (every 5 s) rather than the test waiting for it.
      await client.page.clock.install();
      await client.page.getByLabel('Prompt').fill(PROMPT);
      await client.page.getByRole('radio', { name: '1', exact: true }).check();
      const [started] = await Promise.all([
        client.page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/generations'),
        client.page.getByTestId('generate').click(),
      ]);
      const { id } = GenerationStarted.parse(await started.json());
      const ended = await eventually(
        async () => {
          const got = await callApi(twin(), client.token, 'GET', `/generations/${id}`);
          return got.status === 200 && FINAL_STATUSES.includes(Generation.parse(got.json).status) && Generation.parse(got.json);
        },
        { timeoutMs: 60_000, what: 'the generation to end' },
      );
      expect(ended.status).toBe('succeeded');
      await client.page.clock.fastForward(POLL_INTERVAL_MS);
      await client.page.getByTestId('create-result').first().waitFor({ timeout: 30_000 });
    })(),
  ]);

  // The image model's prediction (not the industry classifier's, whose prompt quotes the client's) ran on the trained version.
  const prediction = (await twin().replicate.predictions()).find((p) => String(p.input.prompt).includes(PROMPT) && /[?&]generation=/.test(p.webhook ?? ''));
  expect(prediction?.version).toBe(version);
  expect(String(prediction?.input.prompt).startsWith(trainings.triggerWord!)).toBe(true);
});
