// The verified identity on the twin (docs/identity.md, "Verified identity"), driven as a tester
// drives it: the applicant's POST /founding-identity/verification, then the Stripe emulator's
// hosted page. A set photo used as the selfie is a copy: accepting then needs a reason and a second
// proof (400 naming what is missing), and a withdrawal of face consent keeps the gate. A session
// we did not create, one naming another application, the same event replayed, and forged
// deliveries change nothing. An applicant under 18 is refused (decision, photos deleted, session
// redacted). An erasure redacts the person's session at Stripe.
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type Stripe from 'stripe';
import type { ApplicationDetail } from '../../../events/founding';
import { acceptGates, CONSENT_VERSION, IDENTITY_REASON_REQUIRED, UNDER_18_MESSAGE } from '../../../events/identity';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { eventually } from '../../support/eventually';
import { FACE_CHECKS_WAIT_MS, personSet } from '../../support/face-photos';
import { postJsonFrom } from '../../support/from-address';
import { fileMarker } from '../../support/marker';
import { submitAndConfirm } from '../../support/review-console';
import { callApi, idToken, useTwin } from '../../support/twin';
import { bornYearsAgo, identityWebhookSecret, postIdentityWebhook, startVerification, stripeOf, submitVerificationPage } from './verification';

jest.setTimeout(600_000);
const twin = useTwin();
const run = fileMarker('vid');
let adminToken: string;
let stripe: Stripe;
let s3: S3Client;

const admin = (method: string, path: string, body?: unknown) => callApi(twin(), adminToken, method, `/admin${path}`, body);
const detailOf = async (id: string) => (await admin('GET', `/applications/${id}`)).json as ApplicationDetail;
const objectsOf = async (id: string) => ((await s3.send(new ListObjectsV2Command({ Bucket: twin().physicalName('FoundingPhotos'), Prefix: `applications/${id}/` }))).Contents ?? []).map((o) => o.Key!);

/** Waits for the application's detail to satisfy `ready`; on time-out, says where it stood. */
const until = (id: string, what: string, ready: (d: ApplicationDetail) => boolean, timeoutMs = FACE_CHECKS_WAIT_MS) =>
  eventually(async () => {
    const detail = await detailOf(id);
    if (ready(detail)) return detail;
    const history = detail.history.map((h) => `${h.event}${h.note ? ` (${h.note})` : ''}`).join('; ');
    throw new Error(`status ${detail.status}; identity ${JSON.stringify(detail.identity ?? null)}; history: ${history}`);
  }, { timeoutMs, what });

/**
 * An application with generated photos (no faces) whose applicant declined face checks: reviewed
 * by hand, verified with the document alone. Answers it once waiting for review.
 */
async function byHand(name: string): Promise<{ applicationId: string; identityToken: string; from: string; email: string; lastName: string }> {
  const email = `${name.toLowerCase()}.${run}@applicants.example`;
  const lastName = `Moreau ${run}`;
  const applicant = await submitAndConfirm(twin(), { email, firstName: name, lastName, photos: 30 });
  const signed = await postJsonFrom(applicant.from, `${twin().urls.api}/founding-identity/consent`, { token: applicant.identityToken, faceConsent: false, typedName: `${name} ${lastName}`, consentVersion: CONSENT_VERSION });
  expect(signed.status).toBe(200);
  await until(applicant.applicationId, `${name}'s application waiting for review`, (d) => d.status === 'pending_review');
  return { ...applicant, email, lastName };
}

/** The Identity events Stripe delivered for a session, once each is answered. */
const delivered = (sessionId: string, type?: string) =>
  eventually(async () => {
    const all = (await twin().stripe.deliveries({ objectId: sessionId })).filter((d) => d.url.endsWith('/webhooks/stripe-identity') && (!type || d.type === type));
    return all.length > 0 && all.every((d) => d.status === 'delivered' || d.status === 'failed') ? all : undefined;
  }, { timeoutMs: 60_000, what: `the webhook deliveries of ${sessionId}${type ? ` (${type})` : ''}` });

beforeAll(async () => {
  adminToken = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
  stripe = await stripeOf(twin());
  s3 = new S3Client({ endpoint: twin().urls.s3, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS }, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED' });
});
afterAll(() => s3?.destroy());

it('finds a set photo used as the selfie a copy; accepting needs a reason and a second proof, also after a withdrawal', async () => {
  const person = await personSet(30, 7);
  const email = `copy.${run}@applicants.example`;
  const { applicationId, identityToken, from } = await submitAndConfirm(twin(), { email, firstName: 'Lena', lastName: `Park ${run}`, bodies: person });
  const identity = (path: string, body: object) => postJsonFrom(from, `${twin().urls.api}/founding-identity${path}`, body);

  // Not before the consent is signed.
  expect(await startVerification(twin(), from, identityToken)).toMatchObject({ status: 409, json: { error: expect.stringContaining('Sign the consent first') } });
  expect((await identity('/consent', { token: identityToken, faceConsent: true, typedName: `Lena Park ${run}`, consentVersion: CONSENT_VERSION })).status).toBe(200);
  await until(applicationId, 'the set checked and the review waiting', (d) => d.status === 'pending_review' && d.identity?.state === 'checked');

  // The session is the application's own, with a selfie; asked again, the same page.
  const opened = await startVerification(twin(), from, identityToken);
  expect(opened.status).toBe(200);
  expect((await startVerification(twin(), from, identityToken)).json).toEqual(opened.json);
  const sessionId = (await detailOf(applicationId)).identity!.verification!.attempts[0]!.sessionId;
  expect(await stripe.identity.verificationSessions.retrieve(sessionId)).toMatchObject({
    type: 'document',
    metadata: { applicationId },
    client_reference_id: applicationId,
    options: { document: { require_matching_selfie: true } },
  });

  // The fourth photo of the set, sent as the selfie.
  await submitVerificationPage(opened.json.url, { firstName: 'Lena', lastName: `Park ${run}`, selfie: person[3] });
  const judged = new Set(['copy', 'match', 'no-match', 'no-face', 'several-faces', 'no-set']);
  const copied = await until(applicationId, 'the verified selfie judged', (d) => judged.has(d.identity?.selfie?.state ?? 'none'));
  expect(copied.identity!.verification).toMatchObject({ state: 'verified', name: { result: 'match' }, age: { result: '18+' } });
  expect(copied.identity!.selfie).toMatchObject({ state: 'copy', copyOf: { kind: 'set-photo', index: 3 } });
  expect(copied.identity!.failedChecks).toEqual([{ check: 'selfie-copy', at: expect.any(String) }]);
  expect(acceptGates(copied.identity)).toEqual(['selfie-copy', 'check-failed-before']);

  // Accepting without the reason and the proof, or with one of them: 400 naming what is missing.
  expect(await admin('POST', `/applications/${applicationId}/decision`, { decision: 'accept', note: '' })).toMatchObject({
    status: 400,
    json: { error: IDENTITY_REASON_REQUIRED, fields: { identityReason: IDENTITY_REASON_REQUIRED, secondProof: IDENTITY_REASON_REQUIRED } },
  });
  const reasonOnly = await admin('POST', `/applications/${applicationId}/decision`, { decision: 'accept', note: '', identityReason: 'Known to us.' });
  expect(reasonOnly.status).toBe(400);
  expect(Object.keys(reasonOnly.json.fields)).toEqual(['secondProof']);

  // Withdrawing face consent takes the selfie and its analysis, not the failed check: the gate stays.
  const withdrawn = await identity('/withdraw-consent', { token: identityToken });
  expect(withdrawn.status).toBe(200);
  const after = await detailOf(applicationId);
  expect(after.identity).toMatchObject({ faceConsent: 'withdrawn', failedChecks: [{ check: 'selfie-copy' }], verification: { state: 'verified' } });
  expect(after.identity!.selfie).toBeUndefined();
  expect((await objectsOf(applicationId)).filter((k) => k.includes('/identity/'))).toEqual([]);
  expect(acceptGates(after.identity)).toEqual(['face-checks-withdrawn', 'check-failed-before']);
  expect((await admin('POST', `/applications/${applicationId}/decision`, { decision: 'accept', note: '' })).status).toBe(400);

  // With both, accepted; the history names the gates, the reason and the proof, by the reviewer.
  const reason = 'The selfie repeats a photo; the applicant re-verified with us in person.';
  const proof = `Video call on 2 December with Lena Park ${run}, ID shown on camera`;
  expect((await admin('POST', `/applications/${applicationId}/decision`, { decision: 'accept', note: '', identityReason: reason, secondProof: proof })).status).toBe(202);
  const history = (await detailOf(applicationId)).history.find((h) => h.event === 'accepted past identity gates');
  expect(history).toMatchObject({ by: twin().admin.email, note: expect.stringContaining(reason) });
  expect(history!.note).toContain(proof);
  expect(history!.note).toContain('face-checks-withdrawn');
  expect(history!.note).toContain('check-failed-before');
});

it('changes nothing for a session we did not create, one naming another application, a replayed event, or a forged delivery', async () => {
  const [ana, bea] = await Promise.all([byHand('Ana'), byHand('Bea')]);

  // A session made at Stripe for Ana's application, but not by us: not in our index.
  const foreign = await stripe.identity.verificationSessions.create({ type: 'document', metadata: { applicationId: ana.applicationId }, client_reference_id: ana.applicationId });
  await submitVerificationPage(foreign.url!, { firstName: 'Ana', lastName: ana.lastName });
  await delivered(foreign.id, 'identity.verification_session.verified');
  expect((await detailOf(ana.applicationId)).identity!.verification).toBeUndefined();

  // Ana's own session, whose metadata is changed to name Bea's application before it is verified.
  const opened = await startVerification(twin(), ana.from, ana.identityToken);
  expect(opened.status).toBe(200);
  const anaSession = (await detailOf(ana.applicationId)).identity!.verification!.attempts[0]!.sessionId;
  expect(await stripe.identity.verificationSessions.retrieve(anaSession)).toMatchObject({ options: { document: { require_matching_selfie: false } } });
  await stripe.identity.verificationSessions.update(anaSession, { metadata: { applicationId: bea.applicationId } });
  await submitVerificationPage(opened.json.url, { firstName: 'Ana', lastName: ana.lastName });
  await delivered(anaSession, 'identity.verification_session.verified');
  expect((await detailOf(ana.applicationId)).identity!.verification).toMatchObject({ state: 'started', attempts: [{ sessionId: anaSession, status: 'requires_input' }] });
  expect((await detailOf(bea.applicationId)).identity!.verification).toBeUndefined();

  // Bea verifies; the verified event sent again (signed) and an older one replayed change nothing.
  const beaOpened = await startVerification(twin(), bea.from, bea.identityToken);
  await submitVerificationPage(beaOpened.json.url, { firstName: 'Bea', lastName: bea.lastName });
  const verified = await until(bea.applicationId, 'Bea verified, with its history line', (d) => d.identity?.verification?.state === 'verified' && d.history.some((h) => h.event === 'ID verification verified'));
  expect(verified.identity!.verification).toMatchObject({ type: 'document', name: { result: 'match' }, age: { result: '18+' } });
  const beaSession = verified.identity!.verification!.attempts[0]!.sessionId;
  const secret = await identityWebhookSecret(twin());
  const [verifiedEvent] = await delivered(beaSession, 'identity.verification_session.verified');
  const event = await stripe.events.retrieve(verifiedEvent!.eventId);
  const body = JSON.stringify(event);
  const replayed = await postIdentityWebhook(twin(), body, stripe.webhooks.generateTestHeaderString({ payload: body, secret }));
  expect(replayed).toEqual({ status: 200, json: { received: true, replayed: true } });
  const processing = JSON.stringify({ ...event, id: `evt_late_${run}`, type: 'identity.verification_session.processing' });
  expect((await postIdentityWebhook(twin(), processing, stripe.webhooks.generateTestHeaderString({ payload: processing, secret }))).status).toBe(200);

  // Forged: no signature, another secret's, or a body changed after signing.
  const forgedBody = JSON.stringify({ ...event, id: `evt_forged_${run}` });
  expect((await postIdentityWebhook(twin(), forgedBody)).status).toBe(400);
  expect((await postIdentityWebhook(twin(), forgedBody, stripe.webhooks.generateTestHeaderString({ payload: forgedBody, secret: 'whsec_not_ours' }))).status).toBe(400);
  expect((await postIdentityWebhook(twin(), forgedBody, stripe.webhooks.generateTestHeaderString({ payload: body, secret }))).status).toBe(400);
  const after = await detailOf(bea.applicationId);
  expect(after.identity!.verification).toEqual(verified.identity!.verification);
  expect(after.history.filter((h) => h.event.startsWith('ID verification'))).toEqual(verified.history.filter((h) => h.event.startsWith('ID verification')));
});

it('refuses an applicant under 18: the decision, the photos deleted, the session redacted', async () => {
  const cleo = await byHand('Cleo');
  expect((await objectsOf(cleo.applicationId)).length).toBeGreaterThan(0);
  const opened = await startVerification(twin(), cleo.from, cleo.identityToken);
  // 18 tomorrow: under 18 on the day of the check.
  await submitVerificationPage(opened.json.url, { firstName: 'Cleo', lastName: cleo.lastName, dob: bornYearsAgo(18, 1) });

  // The refusal, the redaction and the photos' deletion are separate steps: wait for all three.
  const refused = await until(
    cleo.applicationId,
    'the application refused, its session redacted and its photos deleted',
    (d) => d.status === 'rejected' && Boolean(d.identity?.verification?.redactedAt) && d.history.some((h) => h.event === 'photos deleted'),
  );
  expect(refused.decision).toMatchObject({ decision: 'reject', decidedBy: 'identity check', messageToApplicant: UNDER_18_MESSAGE });
  expect(refused.identity!.verification).toMatchObject({ state: 'under-18', age: { result: 'under-18' } });
  expect(refused.history).toEqual(expect.arrayContaining([expect.objectContaining({ event: 'decided: reject', by: 'identity check' }), expect.objectContaining({ event: 'photos deleted' })]));
  expect(await objectsOf(cleo.applicationId)).toEqual([]);
  const session = await stripe.identity.verificationSessions.retrieve(refused.identity!.verification!.attempts[0]!.sessionId);
  expect(session.redaction).not.toBeNull();
  // The applicant is told kindly.
  await eventually(async () => (await twin().emails()).find((m) => m.to.includes(cleo.email) && (m.text ?? '').includes('under 18')), { timeoutMs: 60_000, what: 'the refusal email' });
});

it('redacts the person’s session at Stripe when they are erased', async () => {
  const dora = await byHand('Dora');
  const opened = await startVerification(twin(), dora.from, dora.identityToken);
  await submitVerificationPage(opened.json.url, { firstName: 'Dora', lastName: dora.lastName });
  const verified = await until(dora.applicationId, 'Dora verified', (d) => d.identity?.verification?.state === 'verified');
  const sessionId = verified.identity!.verification!.attempts[0]!.sessionId;
  expect((await stripe.identity.verificationSessions.retrieve(sessionId)).redaction).toBeNull();

  const erased = await admin('POST', '/erasures', { email: dora.email, confirm: dora.email });
  expect(erased.status).toBe(201);
  expect((await stripe.identity.verificationSessions.retrieve(sessionId)).redaction).not.toBeNull();
  expect((await admin('GET', `/applications/${dora.applicationId}`)).status).toBe(404);
});
