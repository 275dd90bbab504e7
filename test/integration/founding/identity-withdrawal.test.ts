// Withdrawing the face data consent on the twin (docs/identity.md, "Withdrawal"). By the identity
// token: an applicant gives face consent and verifies their ID with a selfie on the Stripe
// emulator's page, the photos (without faces) leave the review waiting for replacements; the
// withdrawal deletes the verified selfie and the sealed analyses from the bucket, keeps the
// verification's findings, the application says withdrawn, and the waiting review goes on by hand. From the talent portal: a talent withdraws the consent
// of their own application; another talent reaches nothing of theirs.
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { ApplicationDetail } from '../../../events/founding';
import { CONSENT_VERSION, FaceDataStatus, IdentityStatus } from '../../../events/identity';
import { seedUser } from '../../../infra/local/provision';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { createAcceptedTalent, setApplicationFields } from '../../support/accepted-talent';
import { eventually } from '../../support/eventually';
import { FACE_CHECKS_WAIT_MS, selfieOf } from '../../support/face-photos';
import { postJsonFrom } from '../../support/from-address';
import { fileMarker } from '../../support/marker';
import { submitAndConfirm } from '../../support/review-console';
import { callApi, idToken, useTwin } from '../../support/twin';
import { startVerification, submitVerificationPage } from './verification';

jest.setTimeout(600_000);
const twin = useTwin();
const run = fileMarker('idw');
const PASSWORD = 'Str0ng!Passw0rd-withdraw';
let adminToken: string;
let s3: S3Client;

const bucket = () => twin().physicalName('FoundingPhotos');
const identityKeysOf = async (id: string) => ((await s3.send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: `applications/${id}/identity/` }))).Contents ?? []).map((o) => o.Key!).sort();
const admin = async (id: string) => (await callApi(twin(), adminToken, 'GET', `/admin/applications/${id}`)).json as ApplicationDetail;

beforeAll(async () => {
  adminToken = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
  s3 = new S3Client({ endpoint: twin().urls.s3, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS }, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED' });
});
afterAll(() => s3?.destroy());

it('withdraws by the identity token: the face data is deleted, nothing more is analysed, the review goes on by hand', async () => {
  const email = `applicant.${run}@applicants.example`;
  // Generated photos have no face: the checks ask for replacements, and the review waits.
  const { applicationId, identityToken, from } = await submitAndConfirm(twin(), { email, firstName: 'Noor', lastName: `Haddad ${run}` });
  const identity = (path: string, body: object) => postJsonFrom(from, `${twin().urls.api}/founding-identity${path}`, body);
  const signed = await identity('/consent', { token: identityToken, faceConsent: true, typedName: `Noor Haddad ${run}`, consentVersion: CONSENT_VERSION });
  expect(signed.status).toBe(200);
  await eventually(async () => ((await admin(applicationId)).identity?.state === 'awaiting-photos' ? true : undefined), { timeoutMs: FACE_CHECKS_WAIT_MS, what: 'the face checks asking for replacements' });

  // The ID verified with a selfie (a photo of its own: another file's applicant's would be a copy).
  const opened = await startVerification(twin(), from, identityToken);
  expect(opened.status).toBe(200);
  await submitVerificationPage(opened.json.url, { firstName: 'Noor', lastName: `Haddad ${run}`, selfie: await selfieOf(2) });
  const checked = await eventually(async () => {
    const detail = await admin(applicationId);
    return detail.identity?.selfie?.state === 'no-set' ? detail : undefined;
  }, { timeoutMs: FACE_CHECKS_WAIT_MS, what: 'the verified selfie analysed (no face in the set to match it with)' });
  const selfieKey = `applications/${applicationId}/identity/selfie-${checked.identity!.verification!.attempts[0]!.sessionId}.jpg`;
  expect(await identityKeysOf(applicationId)).toEqual([
    `applications/${applicationId}/identity/descriptors.enc`,
    `applications/${applicationId}/identity/selfie-descriptor.enc`,
    selfieKey,
  ].sort());
  expect(checked.status).not.toBe('pending_review');

  const withdrawn = await identity('/withdraw-consent', { token: identityToken });
  expect(withdrawn.status).toBe(200);
  const status = IdentityStatus.parse(withdrawn.json);
  expect(status).toMatchObject({ applicationId, faceConsent: 'withdrawn', state: 'manual', faceConsentWithdrawnAt: expect.any(String), selfie: { state: 'none' } });
  expect(await identityKeysOf(applicationId)).toEqual([]);

  // A second withdrawal answers the same; the verification stands, and no other session opens.
  const again = await identity('/withdraw-consent', { token: identityToken });
  expect(again).toMatchObject({ status: 200, json: withdrawn.json });
  expect(status.verification).toMatchObject({ state: 'verified' });
  expect((await startVerification(twin(), from, identityToken)).status).toBe(409);

  // The waiting review goes on by hand; the console shows the withdrawal beside the record as given.
  const review = await eventually(async () => {
    const detail = await admin(applicationId);
    return detail.status === 'pending_review' ? detail : undefined;
  }, { timeoutMs: 60_000, what: 'the review resumed by hand' });
  expect(review.identity).toMatchObject({ faceConsent: 'withdrawn', state: 'manual', faceConsentWithdrawnAt: status.faceConsentWithdrawnAt, consent: { faceConsent: 'given' } });
  expect(review.identity!.selfie).toBeUndefined();
  // The verification's findings are facts, not biometric data: they stay.
  expect(review.identity!.verification).toMatchObject({ state: 'verified', name: { result: 'match' }, age: { result: '18+' } });
  expect(review.history.filter((h) => h.event === 'face consent withdrawn')).toHaveLength(1);
  expect(await identityKeysOf(applicationId)).toEqual([]);

  // An unknown token opens nothing.
  expect((await identity('/withdraw-consent', { token: 'C'.repeat(43) })).status).toBe(404);
});

/** An accepted talent's application with face consent given and face data in the bucket, and their signed-in token. */
async function talentWithFaceData(name: string): Promise<{ applicationId: string; token: string }> {
  const email = `${name}.${run}@people.example`;
  const { applicationId } = await createAcceptedTalent(twin(), { email, talentId: `${name}-${run}`, firstName: name, lastName: run, founding: false, marker: `${name}-${run}` });
  const consent = { version: CONSENT_VERSION, typedName: `${name} ${run}`, signedAt: '2026-11-28T09:00:00.000Z', faceConsent: 'given', faceConsentVersion: CONSENT_VERSION };
  await setApplicationFields(twin(), applicationId, {
    identity: { state: 'checked', faceConsent: 'given', consent, selfie: { state: 'match', key: `applications/${applicationId}/identity/selfie-1.jpg` } },
  });
  for (const key of ['selfie-1.jpg', 'descriptors.enc', 'selfie-descriptor.enc']) {
    await s3.send(new PutObjectCommand({ Bucket: bucket(), Key: `applications/${applicationId}/identity/${key}`, Body: Buffer.from(key) }));
  }
  await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['talent'], attributes: { 'custom:role': 'talent' } });
  return { applicationId, token: await idToken(twin(), email, PASSWORD, 'web') };
}

it('withdraws from the talent portal for the talent’s own application only', async () => {
  const [ana, bea] = await Promise.all([talentWithFaceData('ana'), talentWithFaceData('bea')]);
  const nobody = `nobody.${run}@people.example`;
  await seedUser(twin().urls.cognito, twin().userPoolId, { email: nobody, password: PASSWORD, groups: ['talent'], attributes: { 'custom:role': 'talent' } });
  const nobodyToken = await idToken(twin(), nobody, PASSWORD, 'web');

  const read = await callApi(twin(), ana.token, 'GET', '/me/face-data');
  expect(read.status).toBe(200);
  expect(FaceDataStatus.parse(read.json)).toEqual({ faceConsent: 'given', givenAt: '2026-11-28T09:00:00.000Z' });

  // Another talent withdraws their own consent, never Ana's; a talent without an application reaches none.
  const beas = await callApi(twin(), bea.token, 'POST', '/me/face-data/withdraw');
  expect(beas.status).toBe(200);
  expect(FaceDataStatus.parse(beas.json)).toMatchObject({ faceConsent: 'withdrawn', withdrawnAt: expect.any(String) });
  expect(await identityKeysOf(bea.applicationId)).toEqual([]);
  expect((await callApi(twin(), nobodyToken, 'POST', '/me/face-data/withdraw')).status).toBe(404);
  expect((await identityKeysOf(ana.applicationId)).length).toBe(3);
  expect((await admin(ana.applicationId)).identity).toMatchObject({ faceConsent: 'given' });

  // Ana withdraws hers, once.
  const withdrawn = await callApi(twin(), ana.token, 'POST', '/me/face-data/withdraw');
  expect(withdrawn.status).toBe(200);
  expect(FaceDataStatus.parse(withdrawn.json)).toEqual({ faceConsent: 'withdrawn', givenAt: '2026-11-28T09:00:00.000Z', withdrawnAt: expect.any(String) });
  expect(await identityKeysOf(ana.applicationId)).toEqual([]);
  expect((await callApi(twin(), ana.token, 'POST', '/me/face-data/withdraw')).json).toEqual(withdrawn.json);
  const detail = await admin(ana.applicationId);
  expect(detail.identity).toMatchObject({ faceConsent: 'withdrawn', state: 'manual', faceConsentWithdrawnAt: withdrawn.json.withdrawnAt });
  expect(detail.history.filter((h) => h.event === 'face consent withdrawn')).toEqual([expect.objectContaining({ note: expect.stringContaining('talent portal') })]);

  // A signed-out caller reaches nothing.
  expect((await callApi(twin(), undefined, 'POST', '/me/face-data/withdraw')).status).toBe(401);
});
