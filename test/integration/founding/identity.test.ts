// The proof of person on the twin (docs/identity.md), with real faces made from the images inside
// @vladmandic/human (test/support/face-photos.ts): an applicant confirms, consents to face checks
// and signs; the check-faces trigger finds two photos that cannot be used and emails a replace
// link; the applicant verifies their ID on the Stripe emulator's hosted page with a selfie of the
// same person, and the verified selfie matches; the replacements make 30 usable photos and the
// review starts; the reviewer reads the findings, the verification (name and age findings), the
// selfie and the consent record, and with every gate passed accepts without a reason. Another
// token opens nothing.
import type { ApplicationDetail } from '../../../events/founding';
import { acceptGates, CONSENT_VERSION, IdentityStatus } from '../../../events/identity';
import { badPhotos, FACE_CHECKS_WAIT_MS, personSet, selfieOf } from '../../support/face-photos';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { freshAddress, postJsonFrom } from '../../support/from-address';
import { submitAndConfirm } from '../../support/review-console';
import { callApi, idToken, useTwin } from '../../support/twin';
import { startVerification, submitVerificationPage } from './verification';

jest.setTimeout(600_000);
const twin = useTwin();
const run = fileMarker('idv');
const email = `idv.${run}@applicants.example`;
let adminToken: string;

const identity = (path: string, body: object, from = freshAddress()) => postJsonFrom(from, `${twin().urls.api}/founding-identity${path}`, body);
const admin = (method: string, path: string, body?: unknown) => callApi(twin(), adminToken, method, `/admin${path}`, body);

/** Uploads `bytes` through a presigned PUT the identity routes gave. */
async function put(upload: { url: string; headers: Record<string, string> }, bytes: Buffer): Promise<void> {
  const res = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: new Uint8Array(bytes) });
  if (res.status !== 200) throw new Error(`PUT answered ${res.status}: ${await res.text()}`);
}


beforeAll(async () => {
  adminToken = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
});

it('checks the faces, asks for replacements, matches the selfie, and the review starts with the findings', async () => {
  const person = await personSet(30);
  const bad = await badPhotos();
  // 28 photos of the applicant, one without a face and one of another person: 30 pass the format checks.
  const { applicationId, identityToken, from } = await submitAndConfirm(twin(), { email, firstName: 'Ines', lastName: `Vale ${run}`, bodies: [...person.slice(0, 28), bad.noFace, bad.otherPerson[0]!] });

  // Signed with the name applied with, after the separate face data consent.
  const wrongName = await identity('/consent', { token: identityToken, faceConsent: true, typedName: 'Someone Else', consentVersion: CONSENT_VERSION });
  expect(wrongName).toMatchObject({ status: 400, json: { fields: { typedName: expect.stringContaining(`Ines Vale ${run}`) } } });
  const signed = await identity('/consent', { token: identityToken, faceConsent: true, typedName: ` ines  vale ${run} `, consentVersion: CONSENT_VERSION });
  expect(signed.status).toBe(200);
  expect(IdentityStatus.parse(signed.json)).toMatchObject({ applicationId, faceConsent: 'given', state: 'checking', consent: { version: CONSENT_VERSION, signedAt: expect.any(String) } });
  expect((await identity('/consent', { token: identityToken, faceConsent: false, typedName: `Ines Vale ${run}`, consentVersion: CONSENT_VERSION })).status).toBe(409);

  // 28 usable: the applicant is emailed which photos to replace and why, with a link of their own.
  const mail = await eventually(async () => (await twin().emails()).find((m) => m.to.includes(email) && /Replace a few photos/.test(m.subject)), { timeoutMs: FACE_CHECKS_WAIT_MS, what: 'the replace-photos email' });
  expect(mail.text).toContain('28 can be used');
  expect(mail.text).toMatch(/No face found/);
  expect(mail.text).toMatch(/Not the same person/);
  const replaceToken = /founding\/photos#token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')![1]!;

  // The ID verified on Stripe's page, with a selfie of the same person: the verified selfie matches
  // the set. (A selfie of its own: the same photo as another file's applicant would be a copy.)
  const opened = await startVerification(twin(), from, identityToken);
  expect(opened.status).toBe(200);
  expect(await submitVerificationPage(opened.json.url, { firstName: 'Ines', lastName: `Vale ${run}`, dob: '1994-06-30', selfie: await selfieOf(1) })).toBe(`${twin().urls.web.replace(/\/$/, '')}/founding/identity`);
  // Waited for through the console's read (the applicant's routes count each request).
  await eventually(
    async () => {
      const detail = (await admin('GET', `/applications/${applicationId}`)).json as ApplicationDetail;
      return detail.identity?.verification?.state === 'verified' && detail.identity.selfie?.state === 'match';
    },
    { timeoutMs: FACE_CHECKS_WAIT_MS, what: 'the ID verified and the verified selfie matched' },
  );
  const verified = IdentityStatus.parse((await identity('', { token: identityToken })).json);
  expect(verified).toMatchObject({ verification: { state: 'verified', sessionsLeft: 4 }, selfie: { state: 'match' } });

  // The replace page lists the photos that cannot be used first, with why.
  const status = IdentityStatus.parse((await identity('', { token: replaceToken })).json);
  expect(status).toMatchObject({ state: 'awaiting-photos', photos: { total: 30, usable: 28, needed: 2 }, replaceBy: expect.any(String) });
  const unusable = status.photoList!.filter((p) => !p.usable);
  expect(unusable.map((p) => p.findings.map((f) => f.code)).sort()).toEqual([['another-person'], ['no-face']]);
  expect(status.photoList!.slice(0, 2).every((p) => !p.usable)).toBe(true);

  // A key not issued under this application is refused; the two new photos replace the two refused ones.
  const uploads = await identity('/replacement-uploads', { token: replaceToken, files: person.slice(28, 30).map((b) => ({ contentType: 'image/jpeg', size: b.length })) });
  expect(uploads.status).toBe(200);
  await Promise.all(uploads.json.uploads.map((u: { url: string; headers: Record<string, string> }, i: number) => put(u, person[28 + i]!)));
  const keys = uploads.json.uploads.map((u: { key: string }) => u.key);
  expect((await identity('/replacements', { token: replaceToken, remove: [], keys: ['applications/app_aaaaaaaaaaaaaaaaaaaa/identity/replacements/x.jpg'] })).status).toBe(400);
  const sent = await identity('/replacements', { token: replaceToken, remove: unusable.map((p) => p.index), keys });
  expect(sent.status).toBe(200);

  // Checked again: 30 usable, the review starts.
  const waiting = await eventually(
    async () => {
      const res = await admin('GET', `/applications/${applicationId}`);
      const detail = res.json as ApplicationDetail;
      return detail.status === 'pending_review' ? detail : undefined;
    },
    { timeoutMs: FACE_CHECKS_WAIT_MS, what: 'the application waiting for review after the replacements' },
  );
  expect(waiting.identity).toMatchObject({
    state: 'checked',
    faceConsent: 'given',
    summary: { total: 30, usable: 30 },
    selfie: { state: 'match', url: expect.stringContaining('identity/selfie-'), takenAt: expect.any(String) },
    verification: {
      state: 'verified',
      type: 'document-and-selfie',
      name: { result: 'match', verified: `Ines Vale ${run}`, applied: `Ines Vale ${run}` },
      age: { result: '18+', checkedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
      attempts: [expect.objectContaining({ status: 'verified' })],
    },
  });
  expect(waiting.identity!.failedChecks).toBeUndefined();
  // The selfie's URL is signed, short-lived, and opens the selfie as read from Stripe.
  expect((await fetch(waiting.identity!.selfie!.url!)).status).toBe(200);
  // No date of birth is kept, nor any document detail (the signed URLs aside: their random
  // signatures may hold any digits).
  const kept = JSON.stringify(waiting, (key, value: unknown) => (key === 'url' || key === 'thumbnailUrl' ? undefined : value));
  expect(kept).not.toMatch(/1994-06-30|30\/06\/1994|06\/30\/1994|:1994\b|"year":|"dob"|date_of_birth|id_card/);
  expect(waiting.identity!.consent).toMatchObject({ version: CONSENT_VERSION, typedName: `ines  vale ${run}`, faceConsent: 'given', photoSetHash: expect.stringMatching(/^[0-9a-f]{64}$/), selfieHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  expect(waiting.photoResults.filter((p) => p.replacedAt).length).toBe(2);
  expect(waiting.photoResults.filter((p) => p.accepted && !p.replacedAt).every((p) => p.usable === true && p.face)).toBe(true);
  // The face analyses are sealed, never readable as plain JSON in the bucket.
  expect(JSON.stringify(waiting)).not.toMatch(/descriptor/);

  // Once verified, no other session opens.
  expect((await startVerification(twin(), from, identityToken)).status).toBe(409);

  // Every gate passed: accepted without a reason.
  expect(acceptGates(waiting.identity)).toEqual([]);
  const accepted = await admin('POST', `/applications/${applicationId}/decision`, { decision: 'accept', note: '' });
  expect(accepted.status).toBe(202);

  // A token opens only its own application; an unknown one opens nothing.
  expect((await identity('', { token: 'B'.repeat(43) })).status).toBe(404);
});
