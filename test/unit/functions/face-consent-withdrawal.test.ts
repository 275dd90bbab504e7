// Withdrawing the face data consent (docs/identity.md, "Withdrawal"): by the identity token and
// from the talent portal. The selfie and the sealed analyses are deleted (replacement photos
// stay), the withdrawal is recorded beside the unchanged consent record, a second withdrawal
// changes nothing, a review waiting for the proof of person goes on by hand, nothing is analysed
// afterwards (a verified selfie included), the failed checks and the verification's findings stay
// (not biometric), and a token or an account reaches its own application only.
import { acceptNeedsReason, type ConsentRecord, type FailedCheck, type ReviewVerification } from '../../../events/identity';
import { identityStateText } from '../../../admin/src/applications/labels';
import { DataExport } from '../../../events/likeness';
import { exportMyData, type DataExportDeps } from '../../../functions/likeness/routes/export-my-data/service';
import { identityKeys } from '../../../functions/founding/keys';
import type { FoundingStore, StoredApplication, StoredIdentity } from '../../../functions/founding/store';
import { mintIdentityToken } from '../../../functions/founding/identity/tokens';
import type { ApplicantIdentityDeps } from '../../../functions/founding/identity/applicant';
import { withdrawConsent } from '../../../functions/founding/routes/withdraw-identity-consent/service';
import { myFaceData } from '../../../functions/founding/routes/get-my-face-data/service';
import { withdrawMyFaceData } from '../../../functions/founding/routes/withdraw-my-face-data/service';
import { acceptGatesOf } from '../../../functions/founding/identity/review';
import { checkFaces } from '../../../functions/founding/triggers/check-faces/service';
import type { CheckFacesDeps } from '../../../functions/founding/triggers/check-faces/service';
import { memoryBucket } from '../../../functions/shared/s3';

beforeEach(() => void jest.spyOn(console, 'log').mockImplementation(() => undefined));

const A = 'app_aaaaaaaaaaaaaaaaaaaa';
const B = 'app_bbbbbbbbbbbbbbbbbbbb';
const NOW = new Date('2026-12-01T10:00:00.000Z');
const CONSENT: ConsentRecord = { version: '2026-11-27', typedName: 'Ana Lima', signedAt: '2026-11-28T09:00:00.000Z', faceConsent: 'given', faceConsentVersion: '2026-11-27', selfieHash: 'a'.repeat(64) };
const GIVEN: StoredIdentity = {
  state: 'checked',
  faceConsent: 'given',
  consent: CONSENT,
  summary: { total: 30, usable: 30, counts: {} },
  selfie: { state: 'match', key: identityKeys.verifiedSelfie(A, 'vs_1'), score: 0.8, threshold: 0.55, takenAt: '2026-11-28T09:05:00.000Z' },
  checkedAt: '2026-11-28T09:06:00.000Z',
};

/** An ID verified with a matching name, 18 or older. */
const VERIFIED: ReviewVerification = {
  state: 'verified',
  type: 'document-and-selfie',
  verifiedAt: '2026-11-30T09:00:00.000Z',
  name: { result: 'match', verified: 'Ana Lima', applied: 'Ana Lima', note: 'same name' },
  age: { result: '18+', checkedOn: '2026-11-30' },
  attempts: [{ sessionId: 'vs_1', createdAt: '2026-11-30T08:50:00.000Z', status: 'verified', updatedAt: '2026-11-30T09:00:00.000Z' }],
};

function app(id: string, email: string, identity?: StoredIdentity, extra: Partial<StoredApplication> = {}): StoredApplication {
  return { id, program: 'founding', status: 'pending_review', firstName: 'Ana', lastName: 'Lima', email, submittedAt: '2026-11-27T10:00:00.000Z', imagePaths: [], ...(identity ? { identity } : {}), ...extra };
}

/** The store's part the routes use, in memory; conditions on the face consent are honoured as DynamoDB would. */
function memoryStore(apps: StoredApplication[]) {
  const items = new Map(apps.map((a) => [a.id, structuredClone(a)]));
  const tokens = new Map<string, { applicationId: string; expiresAt: number; purpose: 'identity' | 'replace' }>();
  const history: Array<{ id: string; event: string; note?: string }> = [];
  const updates: string[] = [];
  const whileGiven = async (id: string, set: Record<string, unknown>) => {
    const item = items.get(id)!;
    if (item.identity?.faceConsent !== 'given') return false;
    updates.push(id);
    Object.assign(item, structuredClone(set));
    return true;
  };
  const store = {
    now: () => NOW,
    async putIdentityToken(hash: string, token: { applicationId: string; expiresAt: number; purpose: 'identity' | 'replace' }) {
      tokens.set(hash, token);
    },
    getIdentityToken: async (hash: string) => tokens.get(hash),
    getEmailLock: async (email: string) => {
      const found = [...items.values()].find((a) => a.email === email);
      return found ? { applicationId: found.id } : undefined;
    },
    async getApplication(id: string) {
      const found = items.get(id);
      if (!found) throw Object.assign(new Error(`application ${id} not found`), { name: 'ApplicationNotFound' });
      return structuredClone(found);
    },
    async updateApplication(id: string, set: Record<string, unknown>, options: { remove?: string[] } = {}) {
      const item = items.get(id)!;
      updates.push(id);
      Object.assign(item, structuredClone(set));
      for (const field of options.remove ?? []) delete (item as unknown as Record<string, unknown>)[field];
    },
    /** The store's writes that hold only while the face data consent stands. */
    async withdrawFaceConsent(id: string, identity: StoredIdentity) {
      return whileGiven(id, { identity });
    },
    async recordVerifiedSelfie(id: string, selfie: NonNullable<StoredIdentity['selfie']>, options: { failed?: FailedCheck } = {}) {
      const item = items.get(id)!;
      if (item.identity?.faceConsent !== 'given') return false;
      return whileGiven(id, { identity: { ...item.identity, selfie }, ...(options.failed ? { failedChecks: [...(item.failedChecks ?? []), options.failed] } : {}) });
    },
    imageHashesOf: async () => ({ photos: [], selfies: [] }),
    listImageHashes: async () => [],
    recordImageHashes: async () => undefined,
    async recordFaceChecks(id: string, photoResults: unknown, identity: StoredIdentity) {
      return whileGiven(id, { photoResults, identity });
    },
    async clearIdentityTaskToken(id: string, token: string) {
      const item = items.get(id)!;
      if (item.identityTaskToken !== token) return false;
      updates.push(id);
      delete item.identityTaskToken;
      return true;
    },
    async addHistory(id: string, event: string, extra: { note?: string } = {}) {
      history.push({ id, event, note: extra.note });
    },
  };
  return { store: store as unknown as FoundingStore & typeof store, items, history, updates };
}

function world(apps: StoredApplication[]) {
  const { store, items, history, updates } = memoryStore(apps);
  const storage = memoryBucket();
  const put = (key: string) => storage.write(key, Buffer.from(key), 'application/octet-stream');
  const requested: string[] = [];
  const deps: ApplicantIdentityDeps = { store, storage, limit: async () => undefined, requestCheck: async (id) => void requested.push(id) };
  return { deps, store, storage, put, items, history, updates, requested };
}

/** A's and B's face data and A's replacement photo, as the routes and the trigger leave them. */
async function faceDataOf(w: ReturnType<typeof world>, id: string) {
  await Promise.all([w.put(identityKeys.verifiedSelfie(id, 'vs_1')), w.put(identityKeys.descriptors(id)), w.put(identityKeys.selfieDescriptor(id)), w.put(identityKeys.replacement(id, 'r1', 'jpg'))]);
}

describe('withdrawing the face data consent by the identity token', () => {
  it('deletes the selfie and the sealed analyses, keeps replacement photos, and records the withdrawal beside the unchanged record', async () => {
    const w = world([app(A, 'ana@people.example', GIVEN), app(B, 'bea@people.example', { ...GIVEN, selfie: { state: 'match', key: identityKeys.verifiedSelfie(B, 'vs_1') } })]);
    await faceDataOf(w, A);
    await faceDataOf(w, B);
    const { token } = await mintIdentityToken(w.store, A, 'identity');

    const status = await withdrawConsent(w.deps, token, '198.51.100.7');

    expect(status).toMatchObject({ applicationId: A, faceConsent: 'withdrawn', state: 'manual', faceConsentWithdrawnAt: NOW.toISOString(), selfie: { state: 'none' } });
    expect(await w.storage.list(identityKeys.prefix(A))).toEqual([identityKeys.replacement(A, 'r1', 'jpg')]);
    const stored = w.items.get(A)!.identity!;
    expect(stored).toMatchObject({ faceConsent: 'withdrawn', faceConsentWithdrawnAt: NOW.toISOString(), state: 'manual', summary: GIVEN.summary });
    expect(stored.consent).toEqual(CONSENT);
    expect(stored.selfie).toBeUndefined();
    expect(w.history).toEqual([{ id: A, event: 'face consent withdrawn', note: expect.stringContaining('3 files') }]);
    expect(w.requested).toEqual([A]);
    // The token opened A only: B's face data and record are as they were.
    expect((await w.storage.list(identityKeys.prefix(B))).length).toBe(4);
    expect(w.items.get(B)!.identity).toEqual({ ...GIVEN, selfie: { state: 'match', key: identityKeys.verifiedSelfie(B, 'vs_1') } });
  });

  it('answers the same the second time and changes nothing', async () => {
    const w = world([app(A, 'ana@people.example', GIVEN)]);
    await faceDataOf(w, A);
    const { token } = await mintIdentityToken(w.store, A, 'identity');
    const first = await withdrawConsent(w.deps, token, '198.51.100.7');
    const record = structuredClone(w.items.get(A));

    const second = await withdrawConsent(w.deps, token, '198.51.100.7');

    expect(second).toEqual(first);
    expect(w.items.get(A)).toEqual(record);
    expect(w.updates).toEqual([A]);
    expect(w.history).toHaveLength(1);
    // Asked again, in case the first call's request was lost: resuming twice changes nothing.
    expect(w.requested).toEqual([A, A]);
  });

  it('finishes a first withdrawal that failed after recording it: the files go and the review is asked to go on', async () => {
    const w = world([app(A, 'ana@people.example', GIVEN)]);
    await faceDataOf(w, A);
    const { token } = await mintIdentityToken(w.store, A, 'identity');
    const requestCheck = w.deps.requestCheck;
    w.deps.requestCheck = async () => {
      throw new Error('EventBridge is down');
    };
    await expect(withdrawConsent(w.deps, token, '198.51.100.7')).rejects.toThrow(/EventBridge/);
    w.deps.requestCheck = requestCheck;
    // A file the first call did not get to.
    await w.put(identityKeys.verifiedSelfie(A, 'vs_1'));

    await withdrawConsent(w.deps, token, '198.51.100.7');
    expect(w.requested).toEqual([A]);
    expect(await w.storage.list(identityKeys.prefix(A))).toEqual([identityKeys.replacement(A, 'r1', 'jpg')]);
  });

  it('refuses an unknown or expired token and a consent never given', async () => {
    const w = world([app(A, 'ana@people.example', { state: 'manual', faceConsent: 'declined', consent: { ...CONSENT, faceConsent: 'declined' } })]);
    await expect(withdrawConsent(w.deps, 'B'.repeat(43), '198.51.100.7')).rejects.toMatchObject({ status: 404 });
    const { token } = await mintIdentityToken(w.store, A, 'identity');
    await expect(withdrawConsent(w.deps, token, '198.51.100.7')).rejects.toMatchObject({ status: 409, message: expect.stringContaining('nothing to withdraw') });
    const expired = await mintIdentityToken({ ...w.store, now: () => new Date(NOW.getTime() - 8 * 86_400_000) }, A, 'identity');
    await expect(withdrawConsent(w.deps, expired.token, '198.51.100.7')).rejects.toMatchObject({ status: 410 });
    expect(w.updates).toEqual([]);
  });

  it('is limited per network and per application like the other identity routes', async () => {
    const w = world([app(A, 'ana@people.example', GIVEN)]);
    const rules: string[] = [];
    const { token } = await mintIdentityToken(w.store, A, 'identity');
    await withdrawConsent({ ...w.deps, limit: async (r) => void rules.push(...r.map((x) => `${x.name}:${x.subject}`)) }, token, '198.51.100.7');
    expect(rules).toEqual(['founding-identity.ip:198.51.100.7', `founding-identity.application:${A}`]);
  });
});

describe('after the withdrawal', () => {
  it('resumes a review waiting for the proof of person by hand, and analyses nothing', async () => {
    const w = world([app(A, 'ana@people.example', { ...GIVEN, state: 'awaiting-photos', replaceBy: '2026-12-05T10:00:00.000Z' }, { identityTaskToken: 'task-1' })]);
    const { token } = await mintIdentityToken(w.store, A, 'identity');
    await withdrawConsent(w.deps, token, '198.51.100.7');
    expect(w.items.get(A)!.identity).not.toHaveProperty('replaceBy');

    const resumed: Array<[string, object]> = [];
    const analyze = jest.fn();
    const deps = { store: w.store, storage: w.storage, key: async () => Buffer.alloc(32), analyze, validate: jest.fn(), send: jest.fn(), siteUrl: 'https://humanly.test', resume: async (t: string, o: object) => void resumed.push([t, o]), verifiedSelfie: jest.fn() } as unknown as CheckFacesDeps;
    // What the withdrawal asked for: the check-faces trigger with the withdrawn consent.
    expect(await checkFaces(deps, w.requested[0]!)).toEqual({ state: 'manual' });
    expect(resumed).toEqual([['task-1', { identity: 'manual' }]]);
    expect(analyze).not.toHaveBeenCalled();
    expect(w.items.get(A)!.identityTaskToken).toBeUndefined();
  });

  it('analyses no verified selfie: the check-faces trigger resumes by hand and reads nothing from Stripe', async () => {
    const w = world([app(A, 'ana@people.example', GIVEN, { verification: VERIFIED })]);
    const { token } = await mintIdentityToken(w.store, A, 'identity');
    await withdrawConsent(w.deps, token, '198.51.100.7');
    const analyze = jest.fn();
    const verifiedSelfie = jest.fn();
    const deps = { store: w.store, storage: w.storage, key: async () => Buffer.alloc(32), analyze, verifiedSelfie, validate: jest.fn(), send: jest.fn(), siteUrl: 'https://humanly.test', resume: jest.fn() };

    expect(await checkFaces(deps as never, A, 'vs_1')).toEqual({ state: 'manual' });
    expect(verifiedSelfie).not.toHaveBeenCalled();
    expect(analyze).not.toHaveBeenCalled();
    expect(await w.storage.list(identityKeys.prefix(A))).toEqual([]);
  });

  it('drops a verified selfie analysed while the consent was withdrawn', async () => {
    const w = world([app(A, 'ana@people.example', { ...GIVEN, selfie: undefined }, { verification: VERIFIED })]);
    const { token } = await mintIdentityToken(w.store, A, 'identity');
    // The analysis takes a while; the applicant withdraws from their other device meanwhile.
    const analyze = async () => {
      await withdrawConsent(w.deps, token, '198.51.100.7');
      return { width: 600, height: 600, faceCount: 1, face: null, brightness: 120, hash: '0'.repeat(64), mirroredHash: '0'.repeat(64) } as never;
    };
    const verifiedSelfie = async () => ({ bytes: Buffer.from('selfie'), takenAt: '2026-12-01T09:59:00.000Z' });
    const deps = { store: w.store, storage: w.storage, key: async () => Buffer.alloc(32), analyze, verifiedSelfie, validate: jest.fn(), send: jest.fn(), siteUrl: 'https://humanly.test', resume: jest.fn() };

    expect(await checkFaces(deps as never, A, 'vs_1')).toEqual({ state: 'not-recorded' });
    expect(await w.storage.list(identityKeys.prefix(A))).toEqual([]);
    expect(w.items.get(A)!.identity).toMatchObject({ faceConsent: 'withdrawn' });
    expect(w.items.get(A)!.identity!.selfie).toBeUndefined();
  });

  it('keeps the failed checks and the verification: the gates still ask for a reason and a second proof', async () => {
    const failed: FailedCheck[] = [{ check: 'selfie-no-match', at: '2026-11-30T10:00:00.000Z' }];
    const w = world([app(A, 'ana@people.example', { ...GIVEN, selfie: { state: 'no-match', key: identityKeys.verifiedSelfie(A, 'vs_1'), sessionId: 'vs_1' } }, { verification: VERIFIED, failedChecks: failed })]);
    await faceDataOf(w, A);
    expect(acceptGatesOf(w.items.get(A)!)).toEqual(['selfie-mismatch', 'check-failed-before']);
    const { token } = await mintIdentityToken(w.store, A, 'identity');

    await withdrawConsent(w.deps, token, '198.51.100.7');

    const after = w.items.get(A)!;
    expect(after.failedChecks).toEqual(failed);
    expect(after.verification).toEqual(VERIFIED);
    expect(after.identity!.selfie).toBeUndefined();
    expect(await w.storage.list(identityKeys.prefix(A))).toEqual([identityKeys.replacement(A, 'r1', 'jpg')]);
    expect(acceptGatesOf(after)).toEqual(['face-checks-withdrawn', 'check-failed-before']);
  });
});

describe('withdrawing from the talent portal', () => {
  const talent = (email: string, emailVerified = true) => ({ sub: `sub-${email}`, email, emailVerified });

  it('reaches the application under the account’s confirmed email only', async () => {
    const w = world([app(A, 'ana@people.example', GIVEN), app(B, 'bea@people.example', GIVEN)]);
    await faceDataOf(w, A);
    await faceDataOf(w, B);
    const deps = { ...w.deps, store: w.store };

    expect(await myFaceData(deps, talent('bea@people.example'), '198.51.100.7')).toEqual({ faceConsent: 'given', givenAt: CONSENT.signedAt });
    expect(await withdrawMyFaceData(deps, talent(' Bea@People.example '), '198.51.100.7')).toEqual({ faceConsent: 'withdrawn', givenAt: CONSENT.signedAt, withdrawnAt: NOW.toISOString() });
    expect(w.items.get(A)!.identity).toEqual(GIVEN);
    expect((await w.storage.list(identityKeys.prefix(A))).length).toBe(4);
    expect(await w.storage.list(identityKeys.prefix(B))).toEqual([identityKeys.replacement(B, 'r1', 'jpg')]);
    expect(w.history).toEqual([{ id: B, event: 'face consent withdrawn', note: expect.stringContaining('talent portal') }]);

    // An unconfirmed email, or none with an application, opens nothing.
    await expect(withdrawMyFaceData(deps, talent('ana@people.example', false), '198.51.100.7')).rejects.toMatchObject({ status: 404 });
    await expect(withdrawMyFaceData(deps, talent('nobody@people.example'), '198.51.100.7')).rejects.toMatchObject({ status: 404 });
    expect(w.items.get(A)!.identity).toEqual(GIVEN);
  });

  it('is limited per account and per network', async () => {
    const w = world([app(A, 'ana@people.example', GIVEN)]);
    const rules: string[] = [];
    await withdrawMyFaceData({ ...w.deps, store: w.store, limit: async (r) => void rules.push(...r.map((x) => `${x.name}:${x.subject}`)) }, talent('ana@people.example'), '198.51.100.7');
    expect(rules).toEqual(['founding-identity.ip:198.51.100.7', 'face-data.account:sub-ana@people.example']);
  });
});

describe('the talent’s data export', () => {
  it('carries the consent record as it was given and the withdrawal beside it', async () => {
    const withdrawn = app(A, 'ana@people.example', { state: 'manual', faceConsent: 'withdrawn', consent: CONSENT, faceConsentWithdrawnAt: NOW.toISOString() }, { status: 'accepted', talentId: 'ana-lima' });
    const deps = {
      accounts: { get: async () => ({ id: 's1', email: withdrawn.email, full_name: 'Ana Lima', role: 'talent', disabled: false, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }), create: jest.fn() },
      standing: { founding: { getEmailLock: async () => ({ applicationId: A }), getApplication: async () => withdrawn }, talent: { get: async () => undefined, getExcludedIndustries: async () => undefined } },
      founding: { getApplication: async () => withdrawn },
      talent: { getForGeneration: async () => undefined },
      royalties: {},
      generations: {},
      trainings: { listTrainings: async () => [] },
      siteUrl: 'https://humanly.test/',
      limit: async () => undefined,
      now: () => NOW,
    } as unknown as DataExportDeps;
    const data = DataExport.parse(await exportMyData(deps, { sub: 's1', email: withdrawn.email, role: 'talent', emailVerified: true }));
    expect(data.application).toMatchObject({ id: A, consent: CONSENT, fields: { faceConsentWithdrawnAt: NOW.toISOString() } });
  });
});

describe('the review console', () => {
  it('says the review is by hand since the withdrawal, and accepting needs a reason and a second proof', () => {
    const identity = { state: 'manual' as const, faceConsent: 'withdrawn' as const, consent: CONSENT, faceConsentWithdrawnAt: '2026-12-01T10:00:00.000Z' };
    expect(identityStateText(identity)).toMatch(/^Reviewed by hand: face consent withdrawn on .*2026/);
    expect(acceptNeedsReason({ ...identity, verification: VERIFIED })).toBe(true);
  });
});
