// The verified identity's two routes (docs/identity.md, "Verified identity") with an in-memory
// store and a Stripe whose Identity sessions the test sets: POST /founding-identity/verification
// opens the application's own session (reused while open, capped, recorded before the answer);
// POST /webhooks/stripe-identity, signed with the package's test header, applies a session's
// current state once, whatever the order, ignores sessions that are not the application's, and
// refuses an applicant under 18 (decision, photos deleted, session redacted).
import Stripe from 'stripe';
import type { ApplicationDecisionRecord } from '../../../events/founding';
import { MAX_VERIFICATION_SESSIONS, UNDER_18_MESSAGE, type ConsentRecord, type FailedCheck, type ReviewVerification } from '../../../events/identity';
import { mintIdentityToken } from '../../../functions/founding/identity/tokens';
import { receiveIdentityEvent, type IdentityEventDeps } from '../../../functions/founding/routes/receive-identity-event/service';
import { startVerification, type StartVerificationDeps } from '../../../functions/founding/routes/start-identity-verification/service';
import type { FoundingStore, StoredApplication } from '../../../functions/founding/store';
import type { HttpEvent } from '../../../functions/shared/http';
import { memoryBucket } from '../../../functions/shared/s3';
import { recordingOnce } from '../../support/recording-once';

const A = 'app_aaaaaaaaaaaaaaaaaaaa';
const B = 'app_bbbbbbbbbbbbbbbbbbbb';
const NOW = new Date('2026-12-02T10:00:00.000Z');
const SECRET = 'whsec_unit_identity';
const CONSENT: ConsentRecord = { version: '2026-11-27', typedName: 'Ana Lima', signedAt: '2026-12-01T09:00:00.000Z', faceConsent: 'given', faceConsentVersion: '2026-11-27' };

function application(id: string, extra: Partial<StoredApplication> = {}): StoredApplication {
  return {
    id,
    program: 'founding',
    status: 'validating',
    firstName: 'Ana',
    lastName: 'Lima',
    email: `${id}@people.example`,
    submittedAt: '2026-12-01T08:00:00.000Z',
    imagePaths: [],
    validatedAt: '2026-12-01T08:30:00.000Z',
    identity: { state: 'checked', faceConsent: 'given', consent: CONSENT },
    ...extra,
  };
}

/** The store's part the two routes use, in memory, with its conditions as DynamoDB holds them. */
function memoryStore(apps: StoredApplication[]) {
  const items = new Map(apps.map((a) => [a.id, structuredClone(a)]));
  const sessions = new Map<string, string>();
  const tokens = new Map<string, { applicationId: string; expiresAt: number; purpose: 'identity' | 'replace' }>();
  const history: Array<{ id: string; event: string; note?: string; by?: string }> = [];
  const store = {
    now: () => NOW,
    putIdentityToken: async (hash: string, token: { applicationId: string; expiresAt: number; purpose: 'identity' | 'replace' }) => void tokens.set(hash, token),
    getIdentityToken: async (hash: string) => tokens.get(hash),
    async getApplication(id: string) {
      const found = items.get(id);
      if (!found) throw Object.assign(new Error(`application ${id} not found`), { name: 'ApplicationNotFound' });
      return structuredClone(found);
    },
    async recordVerificationSession(id: string, sessionId: string, verification: ReviewVerification, revision: number) {
      const item = items.get(id)!;
      if (!item.identity?.consent || item.decision || (item.verificationRevision ?? 0) !== revision) return false;
      if (sessions.has(sessionId) && sessions.get(sessionId) !== id) return false;
      Object.assign(item, { verification: structuredClone(verification), verificationRevision: revision + 1 });
      sessions.set(sessionId, id);
      return true;
    },
    applicationOfVerificationSession: async (sessionId: string) => sessions.get(sessionId),
    async recordVerification(id: string, revision: number, update: { verification: ReviewVerification; addedChecks?: FailedCheck[] }) {
      const item = items.get(id)!;
      if ((item.verificationRevision ?? 0) !== revision) return false;
      Object.assign(item, { verification: structuredClone(update.verification), verificationRevision: revision + 1 });
      if (update.addedChecks?.length) item.failedChecks = [...(item.failedChecks ?? []), ...update.addedChecks];
      return true;
    },
    async recordSystemDecision(id: string, record: ApplicationDecisionRecord) {
      const item = items.get(id)!;
      if (item.decision || !item.validatedAt || !['validating', 'pending_review'].includes(item.status)) return false;
      Object.assign(item, { decision: record, status: 'rejected' });
      history.push({ id, event: `decided: ${record.decision}`, by: record.decidedBy });
      return true;
    },
    async clearTaskToken(id: string, token: string) {
      const item = items.get(id)!;
      if (item.taskToken !== token) return false;
      delete item.taskToken;
      return true;
    },
    async clearIdentityTaskToken(id: string, token: string) {
      const item = items.get(id)!;
      if (item.identityTaskToken !== token) return false;
      delete item.identityTaskToken;
      return true;
    },
    recordPhotosDeleted: async (id: string) => void (items.get(id)!.photosDeletedAt = NOW.toISOString()),
    deleteImageHashes: async () => undefined,
    async recordVerificationRedacted(id: string, redactedAt: string) {
      const item = items.get(id)!;
      if (!item.verification || item.verification.redactedAt) return false;
      item.verification.redactedAt = redactedAt;
      return true;
    },
    addHistory: async (id: string, event: string, extra: { note?: string; by?: string } = {}) => void history.push({ id, event, ...extra }),
  };
  return { store: store as unknown as FoundingStore, items, index: sessions, history };
}

type Session = Stripe.Identity.VerificationSession;

/** Stripe's Identity sessions as the test sets them; created ones start `requires_input`. */
function fakeStripe() {
  const sessions = new Map<string, Session>();
  const created: Array<{ params: Stripe.Identity.VerificationSessionCreateParams; options?: Stripe.RequestOptions }> = [];
  const redacted: string[] = [];
  const byKey = new Map<string, Session>();
  const stripe = new Stripe('sk_test_unit');
  Object.assign(stripe.identity.verificationSessions, {
    async create(params: Stripe.Identity.VerificationSessionCreateParams, options?: Stripe.RequestOptions) {
      const key = options?.idempotencyKey;
      if (key && byKey.has(key)) return byKey.get(key);
      created.push({ params, options });
      const id = `vs_${created.length}`;
      const session = { id, object: 'identity.verification_session', status: 'requires_input', url: `https://verify.stripe.test/${id}`, metadata: params.metadata, last_error: null, redaction: null } as unknown as Session;
      sessions.set(id, session);
      if (key) byKey.set(key, session);
      return session;
    },
    async retrieve(id: string) {
      const found = sessions.get(id);
      if (!found) throw new Error(`no session ${id}`);
      return structuredClone(found);
    },
    async redact(id: string) {
      redacted.push(id);
      sessions.get(id)!.redaction = { status: 'processing' };
      return sessions.get(id);
    },
  });
  /** Sets what Stripe says of a session now. */
  const set = (id: string, change: Partial<Session> & { dob?: { day: number; month: number; year: number }; name?: [string, string] }) => {
    const { dob, name, ...rest } = change;
    const session = sessions.get(id)!;
    Object.assign(session, rest);
    if (name || dob) {
      session.verified_outputs = { first_name: name?.[0] ?? 'Ana', last_name: name?.[1] ?? 'Lima', dob: dob ?? null } as Session['verified_outputs'];
      session.last_verification_report = { id: `vr_${id}`, created: Math.floor(NOW.getTime() / 1000) } as Stripe.Identity.VerificationReport;
    }
  };
  return { stripe, sessions, created, redacted, set };
}

function world(apps: StoredApplication[]) {
  const memory = memoryStore(apps);
  const fake = fakeStripe();
  const storage = memoryBucket();
  const start: StartVerificationDeps = { store: memory.store, limit: async () => undefined, stripe: async () => fake.stripe, siteUrl: 'https://humanly.test' };
  const { once, completed } = recordingOnce('stripe-identity-event', (input) => (input as { id: string }).id);
  const published: Array<{ type: string; detail: object }> = [];
  const resumed: Array<[string, object]> = [];
  const hook: IdentityEventDeps = {
    stripe: fake.stripe,
    secret: async () => SECRET,
    once,
    store: memory.store,
    storage,
    resume: async (token, output) => (resumed.push([token, output]), true),
    publish: async (type, detail) => void published.push({ type, detail }),
  };
  let n = 0;
  const deliver = async (sessionId: string, type = 'identity.verification_session.verified', options: { id?: string; signature?: string } = {}) => {
    const body = JSON.stringify({ id: options.id ?? `evt_${++n}`, object: 'event', type, created: 1_796_000_000, data: { object: { id: sessionId, object: 'identity.verification_session' } } });
    const header = options.signature ?? fake.stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
    return receiveIdentityEvent(hook, { body, isBase64Encoded: false, headers: header ? { 'Stripe-Signature': header } : {} } as unknown as HttpEvent);
  };
  const tokenOf = async (id: string) => (await mintIdentityToken(memory.store, id, 'identity')).token;
  return { ...memory, ...fake, storage, start, deliver, tokenOf, completed, published, resumed };
}

beforeEach(() => void jest.spyOn(console, 'log').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

describe('POST /founding-identity/verification', () => {
  it('opens the application’s own session, recorded with its index before the answer', async () => {
    const w = world([application(A)]);
    const answer = await startVerification(w.start, await w.tokenOf(A), '198.51.100.7');

    expect(answer).toEqual({ url: 'https://verify.stripe.test/vs_1' });
    expect(w.created).toEqual([
      {
        params: {
          type: 'document',
          options: { document: { require_matching_selfie: true } },
          metadata: { applicationId: A },
          client_reference_id: A,
          return_url: 'https://humanly.test/founding/identity',
        },
        options: { idempotencyKey: `founding-verification:${A}:1` },
      },
    ]);
    expect(w.items.get(A)!.verification).toMatchObject({ state: 'started', type: 'document-and-selfie', attempts: [{ sessionId: 'vs_1', status: 'requires_input' }] });
    expect(w.index.get('vs_1')).toBe(A);
  });

  it('verifies with the document alone when face checks were declined', async () => {
    const w = world([application(A, { identity: { state: 'manual', faceConsent: 'declined', consent: { ...CONSENT, faceConsent: 'declined' } } })]);
    await startVerification(w.start, await w.tokenOf(A), '198.51.100.7');
    expect(w.created[0]!.params.options).toEqual({ document: { require_matching_selfie: false } });
    expect(w.items.get(A)!.verification!.type).toBe('document');
  });

  it('reuses the open session, creates a new one after a cancel, and stops at the cap', async () => {
    const w = world([application(A)]);
    const token = await w.tokenOf(A);
    await startVerification(w.start, token, '198.51.100.7');
    expect(await startVerification(w.start, token, '198.51.100.7')).toEqual({ url: 'https://verify.stripe.test/vs_1' });
    expect(w.created).toHaveLength(1);

    for (let i = 1; i < MAX_VERIFICATION_SESSIONS; i++) {
      w.set(`vs_${i}`, { status: 'canceled' });
      await startVerification(w.start, token, '198.51.100.7');
    }
    expect(w.items.get(A)!.verification!.attempts).toHaveLength(MAX_VERIFICATION_SESSIONS);
    w.set(`vs_${MAX_VERIFICATION_SESSIONS}`, { status: 'canceled' });
    await expect(startVerification(w.start, token, '198.51.100.7')).rejects.toMatchObject({ status: 409, message: expect.stringContaining(`${MAX_VERIFICATION_SESSIONS} ID verifications`) });
    expect(w.created).toHaveLength(MAX_VERIFICATION_SESSIONS);
  });

  it('refuses before the consent is signed, once verified, and for a decided application', async () => {
    const unsigned = world([application(A, { identity: { state: 'awaiting-consent', faceConsent: 'pending' } })]);
    await expect(startVerification(unsigned.start, await unsigned.tokenOf(A), '198.51.100.7')).rejects.toMatchObject({ status: 409, message: expect.stringContaining('Sign the consent first') });
    const verified = world([application(A, { verification: { state: 'verified', attempts: [] } })]);
    await expect(startVerification(verified.start, await verified.tokenOf(A), '198.51.100.7')).rejects.toMatchObject({ status: 409, message: expect.stringContaining('already verified') });
    const decided = world([application(A, { status: 'rejected' })]);
    await expect(startVerification(decided.start, await decided.tokenOf(A), '198.51.100.7')).rejects.toMatchObject({ status: 409 });
    expect([...unsigned.created, ...verified.created, ...decided.created]).toEqual([]);
  });

  it('is limited per network, per application, and per application for verifications', async () => {
    const w = world([application(A)]);
    const rules: string[] = [];
    await startVerification({ ...w.start, limit: async (r) => void rules.push(...r.map((x) => `${x.name}:${x.subject}`)) }, await w.tokenOf(A), '198.51.100.7');
    expect(rules).toEqual(['founding-identity.ip:198.51.100.7', `founding-identity.application:${A}`, `founding-identity.verification:${A}`]);
  });
});

describe('POST /webhooks/stripe-identity', () => {
  async function opened(apps: StoredApplication[] = [application(A)]) {
    const w = world(apps);
    await startVerification(w.start, await w.tokenOf(A), '198.51.100.7');
    return w;
  }

  it('applies a verified session once: name and age findings, the selfie asked to be checked, no date of birth kept', async () => {
    const w = await opened();
    w.set('vs_1', { status: 'verified', name: ['ANA', 'LIMA'], dob: { day: 3, month: 4, year: 1995 } });

    expect(await w.deliver('vs_1', 'identity.verification_session.verified', { id: 'evt_v' })).toMatchObject({ statusCode: 200 });
    const verification = w.items.get(A)!.verification!;
    expect(verification).toMatchObject({
      state: 'verified',
      name: { result: 'match', verified: 'ANA LIMA', applied: 'Ana Lima', note: 'same name' },
      age: { result: '18+', checkedOn: '2026-12-02' },
      attempts: [{ sessionId: 'vs_1', status: 'verified' }],
    });
    expect(JSON.stringify(w.items.get(A))).not.toMatch(/1995/);
    expect(w.published).toEqual([{ type: 'FoundingApplication.IdentityCheckRequested', detail: { version: 1, applicationId: A, sessionId: 'vs_1' } }]);

    // The same event again: answered, nothing changes.
    const before = structuredClone(w.items.get(A));
    expect(JSON.parse((await w.deliver('vs_1', 'identity.verification_session.verified', { id: 'evt_v' })).body as string)).toEqual({ received: true, replayed: true });
    expect(w.items.get(A)).toEqual(before);
    // An older event read now (processing, delivered late): Stripe's current state is applied, nothing changes.
    await w.deliver('vs_1', 'identity.verification_session.processing');
    expect(w.items.get(A)).toEqual(before);
  });

  it('keeps a name mismatch as a finding and a failed check', async () => {
    const w = await opened();
    w.set('vs_1', { status: 'verified', name: ['Maria', 'Souza'], dob: { day: 3, month: 4, year: 1995 } });
    await w.deliver('vs_1');
    expect(w.items.get(A)!.verification!.name).toMatchObject({ result: 'mismatch', note: 'the names differ' });
    expect(w.items.get(A)!.failedChecks).toEqual([{ check: 'name-mismatch', at: expect.any(String) }]);
  });

  it('records a failed attempt with Stripe’s error, and the next session after it', async () => {
    const w = await opened();
    w.set('vs_1', { status: 'requires_input', last_error: { code: 'document_expired', reason: 'The document is expired.' } });
    await w.deliver('vs_1', 'identity.verification_session.requires_input');
    expect(w.items.get(A)!.verification).toMatchObject({ state: 'failed', attempts: [{ status: 'requires_input', error: 'document_expired', errorReason: 'The document is expired.' }] });
    expect(w.items.get(A)!.failedChecks).toBeUndefined();
  });

  it('changes nothing for a session we did not create, one naming another application, or a forged delivery', async () => {
    const w = await opened([application(A), application(B)]);
    const before = structuredClone([...w.items.values()]);
    expect(JSON.parse((await w.deliver('vs_unknown')).body as string)).toEqual({ received: true });

    // A session recorded for A whose metadata names B.
    w.set('vs_1', { status: 'verified', metadata: { applicationId: B }, name: ['Ana', 'Lima'], dob: { day: 3, month: 4, year: 1995 } });
    await w.deliver('vs_1');
    expect([...w.items.values()]).toEqual(before);

    // No signature, or another secret's: 400, nothing read.
    await expect(w.deliver('vs_1', 'identity.verification_session.verified', { signature: '' })).rejects.toMatchObject({ status: 400 });
    const forged = w.stripe.webhooks.generateTestHeaderString({ payload: '{}', secret: 'whsec_someone_else' });
    await expect(w.deliver('vs_1', 'identity.verification_session.verified', { signature: forged })).rejects.toMatchObject({ status: 400 });
    expect([...w.items.values()]).toEqual(before);
    expect(w.published).toEqual([]);
  });

  it('refuses an applicant under 18: decision, review resumed, photos deleted, session redacted', async () => {
    const w = await opened([application(A, { status: 'pending_review', taskToken: 'review-1' })]);
    await w.storage.write(`applications/${A}/photos/0.jpg`, Buffer.from('x'), 'image/jpeg');
    w.set('vs_1', { status: 'verified', name: ['Ana', 'Lima'], dob: { day: 3, month: 12, year: 2008 } });

    await w.deliver('vs_1');

    const app = w.items.get(A)!;
    expect(app.verification).toMatchObject({ state: 'under-18', age: { result: 'under-18', checkedOn: '2026-12-02' }, redactedAt: NOW.toISOString() });
    expect(app).toMatchObject({ status: 'rejected', decision: { decision: 'reject', decidedBy: 'identity check', messageToApplicant: UNDER_18_MESSAGE } });
    expect(w.resumed).toEqual([['review-1', app.decision]]);
    expect(app.taskToken).toBeUndefined();
    expect(await w.storage.list(`applications/${A}/`)).toEqual([]);
    expect(app.photosDeletedAt).toBe(NOW.toISOString());
    expect(w.redacted).toEqual(['vs_1']);
    expect(w.published).toEqual([]);
  });

  it('refuses on Stripe’s own under-age answer too: a session back to requires_input with under_supported_age', async () => {
    const w = await opened([application(A, { status: 'pending_review', taskToken: 'review-2' })]);
    w.set('vs_1', {
      status: 'requires_input',
      last_error: { code: 'under_supported_age', reason: 'The person is under the supported age.' } as Session['last_error'],
      last_verification_report: { id: 'vr_vs_1', created: Math.floor(NOW.getTime() / 1000) } as Stripe.Identity.VerificationReport,
    });

    await w.deliver('vs_1', 'identity.verification_session.requires_input');

    const app = w.items.get(A)!;
    expect(app.verification).toMatchObject({ state: 'under-18', age: { result: 'under-18', checkedOn: NOW.toISOString().slice(0, 10) } });
    expect(app.verification?.attempts.at(-1)).toMatchObject({ status: 'requires_input', error: 'under_supported_age' });
    expect(app).toMatchObject({ status: 'rejected', decision: { decision: 'reject', decidedBy: 'identity check', messageToApplicant: UNDER_18_MESSAGE } });
    expect(w.redacted).toEqual(['vs_1']);
  });

  it('waits for the photos’ validation before refusing (Stripe delivers again)', async () => {
    const w = await opened([application(A, { validatedAt: undefined })]);
    w.set('vs_1', { status: 'verified', name: ['Ana', 'Lima'], dob: { day: 3, month: 12, year: 2010 } });
    await expect(w.deliver('vs_1', 'identity.verification_session.verified', { id: 'evt_u' })).rejects.toThrow(/being validated/);
    expect(w.items.get(A)!.decision).toBeUndefined();

    w.items.get(A)!.validatedAt = '2026-12-02T10:01:00.000Z';
    await w.deliver('vs_1', 'identity.verification_session.verified', { id: 'evt_u' });
    expect(w.items.get(A)).toMatchObject({ status: 'rejected', decision: { decidedBy: 'identity check' } });
  });
});

describe('the applicant’s verification status', () => {
  it('says where it stands, what Stripe found on a failed attempt, and how many sessions are left', async () => {
    const { verificationStatusOf } = await import('../../../functions/founding/identity/verification');
    expect(verificationStatusOf({})).toEqual({ state: 'not-started', message: expect.stringContaining('Verify your identity'), sessionsLeft: MAX_VERIFICATION_SESSIONS });
    const failed: ReviewVerification = {
      state: 'failed',
      attempts: [{ sessionId: 'vs_1', createdAt: NOW.toISOString(), status: 'requires_input', error: 'document_expired', errorReason: 'The document is expired', updatedAt: NOW.toISOString() }],
    };
    expect(verificationStatusOf({ verification: failed })).toEqual({ state: 'failed', message: expect.stringMatching(/^The document is expired\. Your ID could not be verified/), sessionsLeft: MAX_VERIFICATION_SESSIONS - 1 });
  });
});
