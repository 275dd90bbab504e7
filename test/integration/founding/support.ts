// Helpers of the founding-pipeline integration tests: photos, presigned uploads, payloads.
import { CONSENT_VERSION } from '../../../events/identity';
import sharp from 'sharp';
import type { FoundingSignupRequest, FoundingUploadResponse, PresignedUpload } from '../../../events/founding';
import type { TestTwin as Twin } from '../../support/twin';
import { freshAddress, postJsonFrom } from '../../support/from-address';
import { itemsWithPrefix } from '../../support/twin';
import { eventually } from '../../support/eventually';

/** A distinct decodable JPEG, `side` px square (the workflow wants at least 512 px). */
export async function jpeg(seed: number, side = 640, options: { exif?: boolean } = {}): Promise<Buffer> {
  const image = sharp({
    create: { width: side, height: side, channels: 3, background: { r: (seed * 37) % 256, g: (seed * 91) % 256, b: (seed * 53) % 256 } },
  }).jpeg({ quality: 80 });
  if (options.exif) {
    image.withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 12', Artist: 'Test Person' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    });
  }
  return image.toBuffer();
}

export async function jpegs(count: number, from = 0): Promise<Buffer[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => jpeg(from + i)));
}

export interface LocalFile {
  name: string;
  type: string;
  body: Buffer;
}

export const asJpegFiles = (bodies: Buffer[], prefix = 'photo'): LocalFile[] =>
  bodies.map((body, i) => ({ name: `${prefix}-${i + 1}.jpg`, type: 'image/jpeg', body }));

/**
 * Each helper call comes from a network of its own (a loopback address; see test/support/from-address.ts)
 * unless told, so the per-network limits of a shared twin never refuse another test.
 */
export { freshAddress } from '../../support/from-address';

/** `POST /founding-uploads`. */
export async function requestUploads(
  twin: Twin,
  email: string,
  files: Array<{ name: string; type: string; size: number }>,
  uploadSession?: string,
  from: string = freshAddress(),
) {
  return postJsonFrom(from, `${twin.urls.api}/founding-uploads`, { email, files, ...(uploadSession ? { uploadSession } : {}) });
}

/** PUTs a body to a presigned upload as the browser does (its headers, the body's own length). */
export async function put(upload: Pick<PresignedUpload, 'url' | 'headers'>, body: Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(upload.url, { method: 'PUT', headers: { ...upload.headers, ...headers }, body: new Uint8Array(body) });
  return { status: res.status, text: await res.text() };
}

/** Asks for URLs (in batches of 80) and uploads every file; fails the test on any refusal. */
export async function uploadAll(twin: Twin, email: string, files: LocalFile[]): Promise<{ uploadSession: string; keys: string[] }> {
  let uploadSession: string | undefined;
  const keys: string[] = [];
  for (let i = 0; i < files.length; i += 80) {
    const batch = files.slice(i, i + 80);
    const res = await requestUploads(twin, email, batch.map((f) => ({ name: f.name, type: f.type, size: f.body.length })), uploadSession);
    if (res.status !== 200) throw new Error(`founding-uploads answered ${res.status}: ${res.text}`);
    const answer = res.json as FoundingUploadResponse;
    uploadSession = answer.uploadSession;
    const results = await Promise.all(answer.uploads.map((u, j) => put(u, batch[j].body)));
    const failed = results.find((r) => r.status !== 200);
    if (failed) throw new Error(`upload failed ${failed.status}: ${failed.text}`);
    keys.push(...answer.uploads.map((u) => u.key));
  }
  return { uploadSession: uploadSession!, keys };
}

let counter = 0;
/** A fresh applicant address per test, so tests in one file never collide. */
export const applicantEmail = (label = 'applicant') => `${label}.${Date.now().toString(36)}${counter++}@example.com`;

export function signupPayload(email: string, uploadSession: string, imagePaths: string[], overrides: Partial<FoundingSignupRequest> = {}): FoundingSignupRequest {
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email,
    phone: '+44 20 7946 0000',
    location: 'London, UK',
    experience: 'Model and actor for ten years.',
    interests: 'Lifestyle and portrait work.',
    portfolioUrl: 'https://portfolio.example/ada',
    age: 29,
    excludeReligion: true,
    excludePolitics: false,
    excludeAlcohol: true,
    terms: true,
    uploadedFilesCount: imagePaths.length,
    imagePaths,
    uploadSession,
    ...overrides,
  };
}

export const signup = (twin: Twin, body: unknown, path = '/founding-talent-signup', from: string = freshAddress()) =>
  postJsonFrom(from, `${twin.urls.api}${path}`, body);

/** Every confirmation token mailed to an address for its application, oldest first (read from the SES emulator). */
export async function confirmationTokens(twin: Twin, email: string): Promise<string[]> {
  const mail = (await twin.emails()).filter((m) => m.to.includes(email) && /founding-confirm#token=/.test(m.text ?? ''));
  return mail.map((m) => (m.text ?? '').match(/confirm#token=([A-Za-z0-9_-]{43})/)![1]);
}

/** The latest confirmation token mailed to an address, waiting for the email. */
export async function confirmationToken(twin: Twin, email: string): Promise<string> {
  return eventually(async () => (await confirmationTokens(twin, email)).at(-1), { timeoutMs: 15_000, what: `confirmation email to ${email}` });
}

/** `POST /founding-confirm`, as the confirmation page posts it. */
export const confirm = (twin: Twin, token: string, from: string = freshAddress()) => postJsonFrom(from, `${twin.urls.api}/founding-confirm`, { token });

/**
 * Signs up and confirms the address through the link of the confirmation email, as an applicant
 * does; the answer is signup's. Fails the test when the confirmation is refused.
 */
export async function signupConfirmed(twin: Twin, body: FoundingSignupRequest, path?: string) {
  const res = await signup(twin, body, path);
  if (res.status !== 200) return res;
  const confirmed = await confirm(twin, await confirmationToken(twin, body.email.trim().toLowerCase()));
  if (confirmed.status !== 200) throw new Error(`founding-confirm answered ${confirmed.status}: ${confirmed.text}`);
  // The consent signed, face checks declined: the workflow goes on to a review by hand.
  const signed = await postJsonFrom(freshAddress(), `${twin.urls.api}/founding-identity/consent`, {
    token: confirmed.json.identityToken,
    faceConsent: false,
    typedName: `${body.firstName} ${body.lastName}`,
    consentVersion: CONSENT_VERSION,
  });
  if (signed.status !== 200) throw new Error(`founding-identity/consent answered ${signed.status}: ${signed.text}`);
  return res;
}

const applicationItems = (twin: Twin) => itemsWithPrefix(twin, 'FoundingApplicationsTable', 'APP#');
export const applications = async (twin: Twin) => (await applicationItems(twin)).filter((i) => i.sk === 'APPLICATION');
export const applicationOf = async (twin: Twin, email: string) => (await applications(twin)).find((a) => a.email === email);

/** Photos that pass signup's count and are refused by the workflow, by their bytes. */
export async function badPhotos(): Promise<LocalFile[]> {
  const good = await jpeg(99);
  const huge = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: { r: 200, g: 10, b: 10 } } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  return [
    { name: 'cv.jpg', type: 'image/jpeg', body: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n') },
    { name: 'page.jpg', type: 'image/jpeg', body: Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>') },
    { name: 'cut.jpg', type: 'image/jpeg', body: good.subarray(0, Math.floor(good.length / 2)) },
    { name: 'huge.png', type: 'image/png', body: huge },
  ];
}

/**
 * What a reviewer gives to accept an application past the identity gates (docs/identity.md,
 * "Gates"): these tests' applicants verify no ID, so every acceptance needs both.
 */
export const PAST_GATES = { identityReason: 'Tested without an ID verification.', secondProof: 'Video call with the applicant, ID shown on camera.' };
