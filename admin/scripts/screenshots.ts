/**
 * Screenshots of every screen of the review console at 1280 px wide, for looking at it as
 * reviewers see it: `npm run screenshots:admin` (after `npm run build`). It starts a twin, fills
 * it through the public API (waitlist signups, contact messages, founding applications with
 * generated photos), signs in as the twin's admin and saves PNGs to screenshots/admin/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { seedUser } from '../../infra/local/provision';
import { startTwin, type Twin } from '../../infra/local/twin';
import { launchBrowser } from '../../test/support/browser';
import { generateAs, newClient, signInToConsole, submitApplication, waitForStatus } from '../../test/support/review-console';
import { postJson } from '../../test/support/twin';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'screenshots', 'admin');

const PEOPLE = [
  ['Amara', 'Mensah'],
  ['Lucas', 'Ferreira'],
  ['Priya', 'Raman'],
  ['Tom', 'Becker'],
  ['Sofia', 'Lindqvist'],
  ['Kenji', 'Watanabe'],
] as const;
const SIGNUP_TYPES = ['startup', 'marketing-agency', 'freelancer-creator', 'brand-company', 'other'];
const MESSAGES = [
  ['Press enquiry about the founding program', 'Hello! I write for a photography magazine and would love to interview someone about how consent works for talent on Humanly.'],
  ['Can I license for a charity campaign?', 'We are a small charity and wondered whether the licensing covers non-profit use.'],
  ['Question about payouts', 'When do founding talent get paid, monthly or quarterly?'],
];

/** Sample data through the public API; answers the applications' ids (first one has 40 photos). */
export async function seedSamples(twin: Twin): Promise<string[]> {
  for (const [i, [first]] of PEOPLE.entries()) {
    await postJson(`${twin.urls.api}/early-signup`, {
      email: `${first.toLowerCase()}.${i}@fans.example`,
      firstName: first,
      signupType: SIGNUP_TYPES[i % SIGNUP_TYPES.length],
      newsletter: i % 3 !== 0,
      terms: true,
    });
  }
  for (const [i, [subject, message]] of MESSAGES.entries()) {
    await postJson(`${twin.urls.api}/contact`, { firstName: PEOPLE[i][0], lastName: PEOPLE[i][1], email: `sender${i}@mail.example`, subject, message, page: '/contact' });
  }
  const ids: string[] = [];
  for (const [i, [first, last]] of PEOPLE.slice(0, 3).entries()) {
    ids.push(
      await submitApplication(twin, {
        email: `${first.toLowerCase()}@talent.example`,
        firstName: first,
        lastName: last,
        photos: i === 0 ? 40 : 30,
        program: i === 2 ? 'standard' : 'founding',
        excludeReligion: i % 2 === 0,
        excludeAlcohol: i === 1,
      }),
    );
  }
  return ids;
}

async function settle(page: Page, heading: string | RegExp) {
  await page.getByRole('heading', { name: heading }).first().waitFor({ timeout: 20_000 });
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // Images decoded and the progress bars' transitions over.
  await page.waitForTimeout(500);
}

/** Generations through the API as a client: one delivered, one refused (Maya excludes alcohol); answers their ids. */
export async function seedGenerations(twin: Twin): Promise<{ done: string; failed: string }> {
  const token = await newClient(twin, 'studio@brand.example', 'Brand Studio');
  const [done, failed] = await Promise.all([
    generateAs(twin, token, { talentId: 'maya-chen', prompt: 'Reading on a sunlit balcony with a cup of coffee', style: 'Lifestyle', count: 4 }),
    generateAs(twin, token, { talentId: 'maya-chen', prompt: 'Raising a glass of wine at a rooftop party', style: 'Editorial', count: 2 }),
  ]);
  return { done: done.id, failed: failed.id };
}

/**
 * Takes every screen; `applicationId` is one waiting for review, `acceptId` another one that is
 * accepted through the console to show a decided application, `generations` a delivered and a
 * failed generation.
 */
export async function shootConsole(
  page: Page,
  twin: Twin,
  applicationId: string | undefined,
  out = OUT,
  acceptId?: string,
  generations?: { done: string; failed: string },
): Promise<string[]> {
  fs.mkdirSync(out, { recursive: true });
  const files: string[] = [];
  const shot = async (name: string, fullPage = true) => {
    const file = path.join(out, `${name}-1280.png`);
    await page.screenshot({ path: file, fullPage });
    files.push(file);
    console.log(path.relative(process.cwd(), file));
  };
  const go = (hash: string) => page.goto(`${twin.urls.admin}/#${hash}`);

  await go('/');
  await page.getByTestId('founding-value').waitFor({ timeout: 20_000 });
  await settle(page, 'Review console');
  await shot('dashboard');

  await go(`/applications?filter=${encodeURIComponent(JSON.stringify({}))}`);
  await page.getByRole('columnheader', { name: 'Applicant' }).waitFor({ timeout: 20_000 });
  await settle(page, /Applications/);
  await shot('applications-list');

  if (applicationId) {
    await go(`/applications/${applicationId}/show`);
    await page.getByTestId('gallery-thumbnail').first().waitFor({ timeout: 20_000 });
    await settle(page, 'Applicant');
    await shot('application-page');
    await page.getByTestId('gallery-thumbnail').nth(2).click();
    await page.getByTestId('gallery-full').waitFor();
    await page.waitForTimeout(500);
    await shot('application-photo-viewer', false);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByLabel('Note').fill('Strong, varied set; great light in the outdoor shots.');
    await page.waitForTimeout(400);
    await shot('application-decision-dialog', false);
    await page.getByRole('button', { name: 'Cancel' }).click();
  }

  if (acceptId) {
    await go(`/applications/${acceptId}/show`);
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    await page.getByLabel('Note').fill('Consistent likeness across the set; approved for the founding cohort.');
    // The sample application has no verified ID: accepting past the gates takes a reason and a named second proof.
    await page.getByRole('dialog').getByLabel('Why accept anyway').fill('Same person as in the video call; ID shown on camera.');
    await page.getByRole('dialog').getByLabel('Second proof').fill('Video call on 2 December with the applicant');
    await page.getByRole('button', { name: 'Accept application' }).click();
    await page.getByRole('region', { name: 'History' }).getByText('Talent profile created').waitFor({ timeout: 60_000 });
    await page.getByText('Application accepted.').waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
    await settle(page, 'History');
    await shot('application-accepted');
  }

  await go('/waitlist');
  // The samples' signups wait for their confirmation links, so the waitlist may show no rows (and no header).
  await page.getByRole('columnheader', { name: 'Newsletter' }).waitFor({ timeout: 20_000 }).catch(() => console.error('The waitlist shows no signups.'));
  await settle(page, /Waitlist/);
  await shot('waitlist');

  await go('/talent');
  await page.getByRole('columnheader', { name: 'Program' }).waitFor({ timeout: 20_000 });
  await settle(page, /Talent/);
  await shot('talent-list');

  await go('/talent/maya-chen');
  await page.getByLabel('Tagline').waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Save generation config' }).waitFor({ timeout: 20_000 });
  await settle(page, 'Maya Chen');
  await shot('talent-edit');

  if (generations) {
    await go('/generations');
    await page.getByRole('columnheader', { name: 'Credits spent' }).waitFor({ timeout: 20_000 });
    await settle(page, /Generations/);
    await shot('generations-list');
    await go(`/generations/${generations.done}/show`);
    await page.getByTestId('generation-image').first().waitFor({ timeout: 20_000 });
    await settle(page, 'Workflow steps');
    await shot('generation-page');
    await go(`/generations/${generations.failed}/show`);
    await page.getByTestId('generation-failure').waitFor({ timeout: 20_000 });
    await settle(page, 'Workflow steps');
    await shot('generation-failed');
  }

  await go('/messages');
  await page.getByRole('columnheader', { name: 'From' }).waitFor({ timeout: 20_000 });
  await settle(page, /Messages/);
  await shot('messages-list');
  await page.getByText('Question about payouts').click();
  await settle(page, 'Question about payouts');
  await shot('message-page');
  return files;
}

async function main() {
  const twin = await startTwin({ fast: true });
  const { browser, close } = await launchBrowser();
  try {
    const ids = await seedSamples(twin);
    let generations: { done: string; failed: string } | undefined;
    try {
      generations = await seedGenerations(twin);
    } catch (err) {
      console.error(`No generations, so no generation pages: ${(err as Error).message}`);
      process.exitCode = 1;
    }
    let reviewable: string | undefined;
    try {
      await waitForStatus(twin, ids[0], 'pending_review', 120_000);
      reviewable = ids[0];
    } catch (err) {
      console.error(`No application reached review, so no application page: ${(err as Error).message}`);
      process.exitCode = 1;
    }
    const login = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await login.goto(twin.urls.admin);
    await login.getByRole('button', { name: 'Sign in' }).waitFor();
    fs.mkdirSync(OUT, { recursive: true });
    await login.screenshot({ path: path.join(OUT, 'sign-in-1280.png') });
    let acceptable: string | undefined;
    try {
      await waitForStatus(twin, ids[1], 'pending_review', 60_000);
      acceptable = ids[1];
    } catch {
      acceptable = undefined;
    }
    const page = await signInToConsole(browser, twin, twin.admin.email, twin.admin.password);
    await shootConsole(page, twin, reviewable, OUT, acceptable, generations);

    // What a signed-in client sees: no menu, no data.
    await seedUser(twin.urls.cognito, twin.userPoolId, { email: 'client@people.example', password: 'Str0ng!Passw0rd', groups: ['client'] });
    const client = await signInToConsole(browser, twin, 'client@people.example', 'Str0ng!Passw0rd');
    await client.getByRole('heading', { name: 'No access' }).waitFor({ timeout: 20_000 });
    await client.screenshot({ path: path.join(OUT, 'no-access-1280.png') });
  } finally {
    await close();
    await twin.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
