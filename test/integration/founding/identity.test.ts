// The proof of person on the twin (docs/identity.md), with real faces made from the images inside
// @vladmandic/human (test/support/face-photos.ts): an applicant confirms, consents to face checks
// and signs; the check-faces trigger finds two photos that cannot be used and emails a replace
// link; the live selfie matches; the replacements make 30 usable photos and the review starts;
// the reviewer reads the findings, the selfie and the consent record, and cannot accept a selfie
// that does not match without a reason. Another token opens nothing.
import type { ApplicationDetail } from '../../../events/founding';
import { CONSENT_VERSION, IDENTITY_REASON_REQUIRED, IdentityStatus } from '../../../events/identity';
import { badPhotos, personSet, selfieOf, strangerSelfie } from '../../support/face-photos';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { freshAddress, postJsonFrom } from '../../support/from-address';
import { submitAndConfirm } from '../../support/review-console';
import { callApi, idToken, useTwin } from '../../support/twin';

jest.setTimeout(300_000);
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

/** Takes a selfie as the page does: a presigned PUT, then the submission. */
async function selfie(token: string, bytes: Buffer) {
  const upload = await identity('/selfie-upload', { token, contentType: 'image/jpeg', size: bytes.length });
  expect(upload.status).toBe(200);
  await put(upload.json, bytes);
  return identity('/selfie', { token, key: upload.json.key });
}

beforeAll(async () => {
  adminToken = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
});

it('checks the faces, asks for replacements, matches the selfie, and the review starts with the findings', async () => {
  const person = await personSet(30);
  const bad = await badPhotos();
  // 28 photos of the applicant, one without a face and one of another person: 30 pass the format checks.
  const { applicationId, identityToken } = await submitAndConfirm(twin(), { email, firstName: 'Ines', lastName: `Vale ${run}`, bodies: [...person.slice(0, 28), bad.noFace, bad.otherPerson[0]!] });

  // Signed with the name applied with, after the separate face data consent.
  const wrongName = await identity('/consent', { token: identityToken, faceConsent: true, typedName: 'Someone Else', consentVersion: CONSENT_VERSION });
  expect(wrongName).toMatchObject({ status: 400, json: { fields: { typedName: expect.stringContaining(`Ines Vale ${run}`) } } });
  const signed = await identity('/consent', { token: identityToken, faceConsent: true, typedName: ` ines  vale ${run} `, consentVersion: CONSENT_VERSION });
  expect(signed.status).toBe(200);
  expect(IdentityStatus.parse(signed.json)).toMatchObject({ applicationId, faceConsent: 'given', state: 'checking', consent: { version: CONSENT_VERSION, signedAt: expect.any(String) } });
  expect((await identity('/consent', { token: identityToken, faceConsent: false, typedName: `Ines Vale ${run}`, consentVersion: CONSENT_VERSION })).status).toBe(409);

  // 28 usable: the applicant is emailed which photos to replace and why, with a link of their own.
  const mail = await eventually(async () => (await twin().emails()).find((m) => m.to.includes(email) && /Replace a few photos/.test(m.subject)), { timeoutMs: 120_000, what: 'the replace-photos email' });
  expect(mail.text).toContain('28 can be used');
  expect(mail.text).toMatch(/No face found/);
  expect(mail.text).toMatch(/Not the same person/);
  const replaceToken = /founding\/photos#token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')![1]!;

  // The live selfie matches the set.
  const matched = await selfie(identityToken, await selfieOf());
  expect(matched.status).toBe(200);
  expect(IdentityStatus.parse(matched.json).selfie).toMatchObject({ state: 'match' });

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
    { timeoutMs: 120_000, what: 'the application waiting for review after the replacements' },
  );
  expect(waiting.identity).toMatchObject({ state: 'checked', faceConsent: 'given', summary: { total: 30, usable: 30 }, selfie: { state: 'match', url: expect.stringContaining('identity/selfie-') } });
  expect(waiting.identity!.consent).toMatchObject({ version: CONSENT_VERSION, typedName: `ines  vale ${run}`, faceConsent: 'given', photoSetHash: expect.stringMatching(/^[0-9a-f]{64}$/), selfieHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  expect(waiting.photoResults.filter((p) => p.replacedAt).length).toBe(2);
  expect(waiting.photoResults.filter((p) => p.accepted && !p.replacedAt).every((p) => p.usable === true && p.face)).toBe(true);
  // The face analyses are sealed, never readable as plain JSON in the bucket.
  expect(JSON.stringify(waiting)).not.toMatch(/descriptor/);

  // A selfie that does not match: accepting then needs a written reason, kept in the history.
  const stranger = await selfie(identityToken, await strangerSelfie());
  expect(IdentityStatus.parse(stranger.json).selfie.state).toBe('no-match');
  const refused = await admin('POST', `/applications/${applicationId}/decision`, { decision: 'accept', note: '' });
  expect(refused).toMatchObject({ status: 400, json: { fields: { identityReason: IDENTITY_REASON_REQUIRED } } });
  const accepted = await admin('POST', `/applications/${applicationId}/decision`, { decision: 'accept', note: '', identityReason: 'Video call on 27 November: same person, new haircut.' });
  expect(accepted.status).toBe(202);
  const history = (await admin('GET', `/applications/${applicationId}`)).json as ApplicationDetail;
  expect(history.history).toEqual(expect.arrayContaining([expect.objectContaining({ event: 'selfie mismatch accepted', by: twin().admin.email, note: 'Video call on 27 November: same person, new haircut.' })]));

  // A token opens only its own application; an unknown one opens nothing.
  expect((await identity('', { token: 'B'.repeat(43) })).status).toBe(404);
});
