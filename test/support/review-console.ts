// Helpers of the review console's tests and screenshots: founding applications made through the
// public API exactly as the site makes them, admin API calls, and a signed-in console page.
import { CONSENT_VERSION } from '../../events/identity';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import type { ApplicationDetail, FoundingUploadResponse } from '../../events/founding';
import { FINAL_STATUSES } from '../../events/generation-values';
import { Generation, GenerationStarted, type StartGenerationRequest } from '../../events/generations';
import { accountStore } from '../../functions/accounts/store';
import { seedUser } from '../../infra/local/provision';
import type { TestTwin as Twin } from './twin';
import { freshAddress, postJsonFrom } from './from-address';
import { documentClient, idToken } from './twin';
import { eventually } from './eventually';
import { totpCode } from '../../infra/local/totp';

/** A distinct portrait-like JPEG (a gradient and a head and shoulders), `side` px square. */
async function portraitJpeg(seed: number, side = 1024): Promise<Buffer> {
  const hue = (seed * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 100 100">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},55%,72%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},45%,38%)"/>
    </linearGradient></defs>
    <rect width="100" height="100" fill="url(#g)"/>
    <circle cx="${45 + (seed % 10)}" cy="40" r="16" fill="hsl(${(hue + 180) % 360},30%,85%)"/>
    <ellipse cx="${45 + (seed % 10)}" cy="100" rx="32" ry="30" fill="hsl(${(hue + 200) % 360},25%,30%)"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

export interface ApplicantDetails {
  email: string;
  firstName?: string;
  lastName?: string;
  photos?: number;
  program?: 'founding' | 'standard';
  excludeReligion?: boolean;
  excludePolitics?: boolean;
  excludeAlcohol?: boolean;
  /** The generated photos' side in px (1024 when absent). */
  side?: number;
}

/**
 * Uploads generated photos through presigned URLs, submits the application, confirms its address
 * and signs the consent declining face checks (a review by hand: generated photos have no
 * faces); answers its id.
 */
export async function submitApplication(twin: Twin, a: ApplicantDetails): Promise<string> {
  const { applicationId, identityToken, from } = await submitAndConfirm(twin, a);
  const signed = await postJsonFrom(from, `${twin.urls.api}/founding-identity/consent`, {
    token: identityToken,
    faceConsent: false,
    typedName: `${a.firstName ?? 'Ada'} ${a.lastName ?? 'Okafor'}`,
    consentVersion: CONSENT_VERSION,
  });
  if (signed.status !== 200) throw new Error(`founding-identity/consent answered ${signed.status}: ${signed.text}`);
  return applicationId;
}

/** Uploads, submits and confirms an application, leaving the proof of person to the caller: its id, its identity token, the network it came from. */
export async function submitAndConfirm(twin: Twin, a: ApplicantDetails & { bodies?: Buffer[] }): Promise<{ applicationId: string; identityToken: string; from: string }> {
  const count = a.bodies?.length ?? a.photos ?? 30;
  const bodies = a.bodies ?? (await Promise.all(Array.from({ length: count }, (_, i) => portraitJpeg(i + a.email.length, a.side))));
  const files = bodies.map((body, i) => ({ name: `photo-${i + 1}.jpg`, type: 'image/jpeg', body }));
  // Each applicant from a network of their own, so the per-network limits of a shared twin never refuse a test's applicant.
  const from = freshAddress();
  const res = await postJsonFrom(from, `${twin.urls.api}/founding-uploads`, {
    email: a.email,
    files: files.map((f) => ({ name: f.name, type: f.type, size: f.body.length })),
  });
  if (res.status !== 200) throw new Error(`founding-uploads answered ${res.status}: ${res.text}`);
  const answer = res.json as FoundingUploadResponse;
  for (let i = 0; i < answer.uploads.length; i += 8) {
    await Promise.all(
      answer.uploads.slice(i, i + 8).map(async (u, j) => {
        const put = await fetch(u.url, { method: 'PUT', headers: u.headers, body: new Uint8Array(files[i + j].body) });
        if (put.status !== 200) throw new Error(`photo upload answered ${put.status}`);
      }),
    );
  }
  const signup = await postJsonFrom(from, `${twin.urls.api}/founding-talent-signup`, {
    firstName: a.firstName ?? 'Ada',
    lastName: a.lastName ?? 'Okafor',
    email: a.email,
    phone: '+44 20 7946 0000',
    location: 'Bristol, UK',
    experience: 'Commercial and lifestyle modelling for six years; theatre before that.',
    interests: 'Lifestyle, wellness and technology campaigns.',
    portfolioUrl: 'https://portfolio.example/ada',
    age: 31,
    excludeReligion: a.excludeReligion ?? false,
    excludePolitics: a.excludePolitics ?? true,
    excludeAlcohol: a.excludeAlcohol ?? false,
    terms: true,
    uploadedFilesCount: count,
    imagePaths: answer.uploads.map((u) => u.key),
    uploadSession: answer.uploadSession,
    program: a.program ?? 'founding',
  });
  if (signup.status !== 200 || !signup.json?.applicationId) throw new Error(`founding-talent-signup answered ${signup.status}: ${signup.text}`);
  // The application counts once its address is confirmed: follow the emailed link's token.
  const token = await eventually(
    async () => {
      const mail = (await twin.emails()).filter((m) => m.to.includes(a.email) && /confirm#token=/.test(m.text ?? ''));
      return mail.at(-1)?.text?.match(/confirm#token=([A-Za-z0-9_-]{43})/)?.[1];
    },
    { timeoutMs: 15_000, what: `a confirmation email to ${a.email}` },
  );
  const confirmed = await postJsonFrom(from, `${twin.urls.api}/founding-confirm`, { token });
  if (confirmed.status !== 200) throw new Error(`founding-confirm answered ${confirmed.status}: ${confirmed.text}`);
  return { applicationId: signup.json.applicationId as string, identityToken: String(confirmed.json.identityToken), from };
}

/** GET on the admin API as the twin's admin. */
export async function adminGet<T = unknown>(twin: Twin, path: string): Promise<{ status: number; json: T }> {
  const token = await idToken(twin, twin.admin.email, twin.admin.password);
  const res = await fetch(`${twin.urls.api}/admin${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, json: (await res.json().catch(() => undefined)) as T };
}

/** Polls the admin API until the application reaches `status` (the workflow runs asynchronously). */
export function waitForStatus(twin: Twin, id: string, status: string, timeoutMs = 60_000): Promise<ApplicationDetail> {
  return eventually(
    async () => {
      const res = await adminGet<ApplicationDetail>(twin, `/applications/${id}`);
      if (res.status !== 200 || res.json.status !== status) throw new Error(`the admin API answered ${res.status} ${res.json?.status}`);
      return res.json;
    },
    { timeoutMs, what: `application ${id} to reach ${status}` },
  );
}

/**
 * A console page signed in with a password and, for the seeded admin, the two-factor code
 * of its authenticator key, at 1280 px.
 */
export async function signInToConsole(browser: Browser, twin: Twin, email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(twin.urls.admin);
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill(password);
  if (email === twin.admin.email) await page.getByLabel(/^Two-factor code/).fill(totpCode(twin.admin.totpSecret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  return page;
}

export const CLIENT_PASSWORD = 'Str0ng!Passw0rd-e2e';

/** A client as sign-up leaves them (in the pool, with the Free plan's credits); answers their id token for the API. */
export async function newClient(twin: Twin, email: string, fullName = 'Gene Console'): Promise<string> {
  const { sub } = await seedUser(twin.urls.cognito, twin.userPoolId, { email, password: CLIENT_PASSWORD, groups: ['client'], attributes: { 'custom:role': 'client' } });
  await accountStore(documentClient(twin), twin.physicalName('AccountsTable')).create({ id: sub!, email, full_name: fullName, role: 'client' });
  return idToken(twin, email, CLIENT_PASSWORD, 'web');
}

/** Starts a generation through the API as a client (their id token) and waits for the workflow to end it. */
export async function generateAs(twin: Twin, token: string, request: StartGenerationRequest, timeoutMs = 120_000): Promise<Generation> {
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${twin.urls.api}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
    return { status: res.status, json: (await res.json().catch(() => undefined)) as unknown };
  };
  const started = await call('/generations', { method: 'POST', body: JSON.stringify(request) });
  if (started.status !== 202) throw new Error(`POST /generations answered ${started.status}: ${JSON.stringify(started.json)}`);
  const { id } = GenerationStarted.parse(started.json);
  return eventually(
    async () => {
      const got = await call(`/generations/${id}`);
      const generation = got.status === 200 ? Generation.parse(got.json) : undefined;
      if (!generation || !FINAL_STATUSES.includes(generation.status)) throw new Error(`GET /generations/${id} answered ${got.status} ${generation?.status}`);
      return generation;
    },
    { timeoutMs, what: `generation ${id} to finish` },
  );
}
