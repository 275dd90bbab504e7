// The verified selfie's check (functions/founding/identity/verified-selfie.ts; docs/identity.md,
// "Verified identity"), with the face analyses given: Stripe's selfie is kept under the
// application's identity prefix, sealed once analysed, matched with the set, found a copy of a set
// photo (a failed check) or of another application's image, checked once per session.
import type { FailedCheck, ReviewVerification } from '../../../events/identity';
import type { PhotoAnalysis, SetPhoto } from '../../../functions/founding/faces';
import { hashPairOf } from '../../../functions/founding/identity/copies';
import { seal } from '../../../functions/founding/identity/crypto';
import { checkVerifiedSelfie, type VerifiedSelfieDeps } from '../../../functions/founding/identity/verified-selfie';
import { identityKeys } from '../../../functions/founding/keys';
import type { FoundingStore, StoredApplication, StoredIdentity } from '../../../functions/founding/store';
import { memoryBucket } from '../../../functions/shared/s3';

const A = 'app_aaaaaaaaaaaaaaaaaaaa';
const KEY = Buffer.alloc(32, 7);
const NOW = new Date('2026-12-02T10:00:00.000Z');
const VERIFIED: ReviewVerification = {
  state: 'verified',
  type: 'document-and-selfie',
  attempts: [{ sessionId: 'vs_1', createdAt: NOW.toISOString(), status: 'verified', updatedAt: NOW.toISOString() }],
};

/** A photo's analysis: `hash` (64 hex digits), one face with `descriptor` when given. */
function analysis(hash: string, descriptor?: number[]): PhotoAnalysis {
  return {
    width: 600,
    height: 600,
    faceCount: descriptor ? 1 : 0,
    face: descriptor ? ({ confidence: 1, box: { x: 0, y: 0, width: 1, height: 1 }, pixels: 400, share: 0.5, descriptor, sharpness: 300, brightness: 120 } as PhotoAnalysis['face']) : null,
    brightness: 120,
    hash,
    mirroredHash: hash.split('').reverse().join(''),
  };
}

/** One person's face, seen a little differently each time (`k`): about 0.8 alike to each other, as two photos of one person. */
const BASE = Array.from({ length: 1024 }, (_, i) => Math.sin(i) * 0.05);
const face = (k: number) => BASE.map((v, i) => v + 0.2 * Math.cos(i * (3 + k)));
const SET: SetPhoto[] = Array.from({ length: 6 }, (_, i) => ({ id: String(i), analysis: analysis((i + 1).toString(16).repeat(64), face(i)) }));

function world(app: Partial<StoredApplication>, others: Array<{ applicationId: string; photos: string[]; selfies: string[] }> = []) {
  let item: StoredApplication = { id: A, program: 'founding', status: 'pending_review', firstName: 'Ana', lastName: 'Lima', email: 'ana@people.example', submittedAt: NOW.toISOString(), imagePaths: [], ...app };
  const history: string[] = [];
  const hashes: string[] = [];
  const store = {
    now: () => NOW,
    getApplication: async () => structuredClone(item),
    imageHashesOf: async () => ({ photos: [], selfies: [...hashes] }),
    listImageHashes: async () => others,
    recordImageHashes: async (_id: string, h: { selfie: string }) => void hashes.push(h.selfie),
    async recordVerifiedSelfie(_id: string, selfie: NonNullable<StoredIdentity['selfie']>, options: { failed?: FailedCheck } = {}) {
      if (item.identity?.faceConsent !== 'given') return false;
      item = { ...item, identity: { ...item.identity, selfie }, ...(options.failed ? { failedChecks: [...(item.failedChecks ?? []), options.failed] } : {}) };
      return true;
    },
    addHistory: async (_id: string, event: string, extra: { note?: string } = {}) => void history.push(`${event}: ${extra.note}`),
  };
  const storage = memoryBucket();
  const fetched: string[] = [];
  const deps = (selfie: PhotoAnalysis): VerifiedSelfieDeps => ({
    store: store as unknown as FoundingStore,
    storage,
    key: async () => KEY,
    analyze: async () => selfie,
    verifiedSelfie: async (sessionId) => (fetched.push(sessionId), { bytes: Buffer.from(`selfie of ${sessionId}`), takenAt: '2026-12-02T09:58:00.000Z' }),
  });
  const withSet = () => storage.write(identityKeys.descriptors(A), seal(KEY, Buffer.from(JSON.stringify(SET)), `${A}:set`), 'application/octet-stream');
  return { deps, storage, history, fetched, withSet, item: () => item };
}

const GIVEN: StoredIdentity = { state: 'checked', faceConsent: 'given' };
beforeEach(() => void jest.spyOn(console, 'log').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

describe('checkVerifiedSelfie', () => {
  it('keeps the selfie, seals its analysis, matches it with the set, once per session', async () => {
    const w = world({ identity: GIVEN, verification: VERIFIED });
    await w.withSet();
    const selfie = analysis('f'.repeat(32) + '0'.repeat(32), face(40));

    expect(await checkVerifiedSelfie(w.deps(selfie), A, 'vs_1')).toEqual({ state: 'match' });
    expect(w.item().identity!.selfie).toMatchObject({ state: 'match', key: identityKeys.verifiedSelfie(A, 'vs_1'), sessionId: 'vs_1', takenAt: '2026-12-02T09:58:00.000Z', score: expect.any(Number) });
    expect((await w.storage.list(identityKeys.prefix(A))).sort()).toEqual([identityKeys.descriptors(A), identityKeys.selfieDescriptor(A), identityKeys.verifiedSelfie(A, 'vs_1')].sort());
    expect((await w.storage.read(identityKeys.selfieDescriptor(A))).toString('utf8')).not.toContain('descriptor');
    expect(w.item().failedChecks).toBeUndefined();

    // Asked again (another event of the session): nothing is read from Stripe again.
    expect(await checkVerifiedSelfie(w.deps(selfie), A, 'vs_1')).toEqual({ state: 'match' });
    expect(w.fetched).toEqual(['vs_1']);
  });

  it('finds a set photo sent as the selfie a copy, and keeps the failed check', async () => {
    const w = world({ identity: GIVEN, verification: VERIFIED });
    await w.withSet();
    expect(await checkVerifiedSelfie(w.deps(SET[2]!.analysis), A, 'vs_1')).toEqual({ state: 'copy' });
    expect(w.item().identity!.selfie).toMatchObject({ state: 'copy', copyOf: { kind: 'set-photo', index: 2, distance: 0 } });
    expect(w.item().failedChecks).toEqual([{ check: 'selfie-copy', at: NOW.toISOString() }]);
    expect(w.history).toEqual([expect.stringMatching(/^verified selfie checked: .*copy of set-photo 3/)]);
  });

  it('finds another application’s photo sent as the selfie a copy', async () => {
    const stolen = analysis('9'.repeat(64), face(50));
    const w = world({ identity: GIVEN, verification: VERIFIED }, [{ applicationId: 'app_bbbbbbbbbbbbbbbbbbbb', photos: [hashPairOf(stolen)], selfies: [] }]);
    await w.withSet();
    expect(await checkVerifiedSelfie(w.deps(stolen), A, 'vs_1')).toEqual({ state: 'copy' });
    expect(w.item().identity!.selfie!.copyOf).toEqual({ kind: 'other-application', distance: 0 });
  });

  it('waits for the photos when the set is not checked yet', async () => {
    const w = world({ identity: { state: 'checking', faceConsent: 'given' }, verification: VERIFIED });
    expect(await checkVerifiedSelfie(w.deps(analysis('f'.repeat(64), face(60))), A, 'vs_1')).toEqual({ state: 'waiting-for-photos' });
  });

  it('reads nothing for a session the application did not open, nor without face consent', async () => {
    const other = world({ identity: GIVEN, verification: VERIFIED });
    expect(await checkVerifiedSelfie(other.deps(analysis('f'.repeat(64))), A, 'vs_someone_else')).toEqual({ state: 'ignored' });
    const declined = world({ identity: { state: 'manual', faceConsent: 'declined' }, verification: VERIFIED });
    expect(await checkVerifiedSelfie(declined.deps(analysis('f'.repeat(64))), A, 'vs_1')).toEqual({ state: 'manual' });
    expect([...other.fetched, ...declined.fetched]).toEqual([]);
  });
});
