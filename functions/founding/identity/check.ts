// The face checks of an application (docs/identity.md), run by the check-faces trigger whenever
// something changes: the face data consent given, the photos validated, replacement photos sent.
// Safe to run again: it reads everything from the application and the bucket, and writes the
// findings, the summary and the selfie's result as they are now.
import { MIN_APPLICATION_IMAGES } from '../../../events/founding-values';
import type { PhotoResult } from '../../../events/founding';
import type { FaceFinding } from '../../../events/identity';
import { FACE_FINDING_CODES, type FaceFindingCode } from '../../../events/identity-values';
import type { Email } from '../../shared/email-layout';
import { RaceLostError } from '../../shared/retry';
import { log } from '../../shared/log';
import type { Bucket } from '../../shared/s3';
import { replacePageUrl, replacePhotosEmail } from '../emails/identity';
import { assessSet, matchSelfie, type PhotoAnalysis, type SetPhoto } from '../faces';
import { identityKeys, photoKey } from '../keys';
import type { FoundingStore, StoredApplication, StoredIdentity } from '../store';
import { copyOf, hashPairOf } from './copies';
import { open, seal, sha256Hex } from './crypto';
import { setPhotosOf } from './photos';
import { resumeIdentityWait } from './resume';
import { mintIdentityToken } from './tokens';
import { deleteFaceData } from './withdraw';

/** Rounds of replacements an applicant is asked for; after the last, the reviewer decides with what there is. */
const MAX_REPLACEMENT_ROUNDS = 3;

export interface FaceCheckDeps {
  store: FoundingStore;
  storage: Bucket;
  /** The identity encryption key (crypto.ts). */
  key: () => Promise<Buffer>;
  analyze: (bytes: Buffer) => Promise<PhotoAnalysis>;
  /** Validates replacement uploads into the application's photos from `firstIndex` (photos/validate.ts). */
  validate: (applicationId: string, keys: readonly string[], firstIndex: number) => Promise<PhotoResult[]>;
  send: (to: string, email: Email) => Promise<unknown>;
  siteUrl: string;
  /** Resumes the workflow's AwaitIdentity step (SendTaskSuccess). */
  resume: (taskToken: string, output: object) => Promise<void>;
}

/** Where an application's analyses are sealed: bound to the application (AAD). */
const aadOf = (applicationId: string, what: 'set' | 'selfie') => `${applicationId}:${what}`;

/** Reads the sealed analyses of the set, or undefined when there are none yet. */
export async function readSetAnalyses(deps: Pick<FaceCheckDeps, 'storage' | 'key'>, applicationId: string): Promise<SetPhoto[] | undefined> {
  if ((await deps.storage.size(identityKeys.descriptors(applicationId))) === undefined) return undefined;
  const sealed = await deps.storage.read(identityKeys.descriptors(applicationId));
  return JSON.parse(open(await deps.key(), sealed, aadOf(applicationId, 'set')).toString('utf8')) as SetPhoto[];
}

/** Reads the sealed analysis of the newest one-face selfie, or undefined. */
export async function readSelfieAnalysis(deps: Pick<FaceCheckDeps, 'storage' | 'key'>, applicationId: string): Promise<PhotoAnalysis | undefined> {
  if ((await deps.storage.size(identityKeys.selfieDescriptor(applicationId))) === undefined) return undefined;
  const sealed = await deps.storage.read(identityKeys.selfieDescriptor(applicationId));
  return JSON.parse(open(await deps.key(), sealed, aadOf(applicationId, 'selfie')).toString('utf8')) as PhotoAnalysis;
}

export async function writeSelfieAnalysis(deps: Pick<FaceCheckDeps, 'storage' | 'key'>, applicationId: string, analysis: PhotoAnalysis): Promise<void> {
  const sealed = seal(await deps.key(), Buffer.from(JSON.stringify(analysis)), aadOf(applicationId, 'selfie'));
  await deps.storage.write(identityKeys.selfieDescriptor(applicationId), sealed, 'application/octet-stream');
}


/** A findings summary's counts, non-zero only, in finding order. */
function countsOf(findings: Record<FaceFindingCode, number>): Partial<Record<FaceFindingCode, number>> {
  return Object.fromEntries(FACE_FINDING_CODES.filter((c) => findings[c] > 0).map((c) => [c, findings[c]]));
}

/** Applications in these statuses are decided: nothing is checked any more. */
export const FINAL = new Set(['accepted', 'rejected', 'invalid']);

/** Runs the checks of an application now; answers the identity state it ends in. */
export async function runFaceChecks(deps: FaceCheckDeps, applicationId: string): Promise<{ state: StoredIdentity['state']; usable?: number }> {
  const app = await deps.store.getApplication(applicationId);
  let identity = app.identity;
  if (!identity || identity.faceConsent !== 'given') return { state: identity?.state ?? 'awaiting-consent' };
  if (!app.photoResults || FINAL.has(app.status) || app.decision) return { state: identity.state };

  let results = app.photoResults;
  if (identity.pendingReplacements) {
    results = await applyReplacements(deps, app, results);
    identity = (await deps.store.getApplication(applicationId)).identity!;
  }
  const photos = setPhotosOf(results);
  const started = Date.now();
  const analyses: SetPhoto[] = [];
  const hashes: string[] = [];
  for (const photo of photos) {
    const bytes = await deps.storage.read(photoKey(applicationId, photo.index!));
    hashes.push(sha256Hex(bytes));
    analyses.push({ id: String(photo.index), analysis: await deps.analyze(bytes) });
  }
  const assessment = assessSet(analyses);
  const byIndex = new Map(assessment.photos.map((p) => [Number(p.id), p]));
  results = results.map((r) => {
    const assessed = r.index !== undefined && !r.replacedAt ? byIndex.get(r.index) : undefined;
    if (!assessed) return r;
    const findings: FaceFinding[] = assessed.findings.map((f) => ({ code: f.code, message: f.message, ...(f.code === 'duplicate' ? { of: Number(f.of) } : {}) }));
    const face = analyses.find((a) => a.id === String(r.index))?.analysis.face?.box;
    return { ...r, usable: assessed.usable, findings, ...(face ? { face } : {}) };
  });
  const sealed = seal(await deps.key(), Buffer.from(JSON.stringify(analyses)), aadOf(applicationId, 'set'));
  await deps.storage.write(identityKeys.descriptors(applicationId), sealed, 'application/octet-stream');
  // The set's perceptual hashes, for the copy check of other applications' selfies (identity/copies.ts).
  await deps.store.recordImageHashes(applicationId, { photos: analyses.map((a) => hashPairOf(a.analysis)) });

  const usable = assessment.summary.usable;
  const summary = { total: assessment.summary.total, usable, counts: countsOf(assessment.summary.findings) };
  // The analysis took a while: a verified selfie may have been checked meanwhile. Read the identity
  // again, so what that check wrote (its key, its hash on the consent) is kept.
  identity = (await deps.store.getApplication(applicationId)).identity ?? identity;
  if (identity.faceConsent !== 'given') return faceConsentGone(deps, applicationId, identity.state);
  const selfieAnalysis = await readSelfieAnalysis(deps, applicationId);
  // A verified selfie analysed before the set was checked: now it is matched, and looked at as a
  // possible copy of a set photo (identity/copies.ts), which could not be done before.
  const setCopy = selfieAnalysis && identity.selfie?.state !== 'copy' ? copyOf(selfieAnalysis, { set: analyses, earlierSelfieHashes: [], others: [] }) : undefined;
  const selfie = selfieAnalysis
    ? setCopy
      ? { ...identity.selfie, state: 'copy' as const, copyOf: setCopy }
      : selfieStateOf(matchSelfie(selfieAnalysis, analyses), identity.selfie)
    : identity.selfie;
  const rounds = identity.replacementRounds ?? 0;
  const short = usable < MIN_APPLICATION_IMAGES && rounds < MAX_REPLACEMENT_ROUNDS;
  const now = deps.store.now().toISOString();
  const photoSetHash = sha256Hex(hashes.join('\n'));
  const next: StoredIdentity = {
    ...identity,
    state: short ? 'awaiting-photos' : 'checked',
    summary,
    ...(selfie ? { selfie } : {}),
    checkedAt: now,
    // The signed record keeps the set it was signed for: the hash of the first set checked.
    ...(identity.consent && !identity.consent.photoSetHash ? { consent: { ...identity.consent, photoSetHash } } : {}),
  };
  let replaceLink: { token: string; expiresAt: string } | undefined;
  if (short) {
    replaceLink = await mintIdentityToken(deps.store, applicationId, 'replace');
    next.replacementRounds = rounds + 1;
    next.replaceBy = replaceLink.expiresAt;
  }
  if (!(await deps.store.recordFaceChecks(applicationId, results, next))) return faceConsentGone(deps, applicationId, 'manual');
  // A selfie that became a copy or stopped matching is a failed check, kept through a withdrawal.
  const failed = selfie && selfie.state !== identity.selfie?.state ? (selfie.state === 'copy' ? 'selfie-copy' : selfie.state === 'no-match' ? 'selfie-no-match' : undefined) : undefined;
  if (failed) await deps.store.addFailedCheck(applicationId, { check: failed, at: now });
  await deps.store.addHistory(applicationId, 'faces checked', {
    note: `${usable} usable of ${summary.total}${Object.entries(summary.counts).map(([c, n]) => ` · ${n} ${c.replace(/-/g, ' ')}`).join('')}${selfie ? ` · selfie: ${selfie.state}` : ''}`,
  });
  log.info('faces checked', { applicationId, total: summary.total, usable, ms: Date.now() - started, state: next.state });

  if (replaceLink) {
    const toReplace = results
      .filter((r) => r.accepted && r.index !== undefined && !r.replacedAt && r.usable === false)
      .map((r) => ({ number: r.index! + 1, reasons: (r.findings ?? []).map((f) => f.message) }));
    await deps.send(app.email, replacePhotosEmail({ firstName: app.firstName, usable, photos: toReplace, replaceUrl: replacePageUrl(deps.siteUrl, replaceLink.token) }));
    await deps.store.addHistory(applicationId, 'photos to replace', { note: `${toReplace.length} photos to replace, link valid until ${replaceLink.expiresAt.slice(0, 10)}` });
  } else {
    await resumeIdentityWait(deps, applicationId, { identity: next.state, usable });
  }
  return { state: next.state, usable };
}

/**
 * The consent was withdrawn while the photos were analysed: what this run sealed is deleted
 * with the rest of the face data, and nothing is recorded (the withdrawal resumes the review).
 */
async function faceConsentGone(deps: Pick<FaceCheckDeps, 'storage'>, applicationId: string, state: StoredIdentity['state']): Promise<{ state: StoredIdentity['state'] }> {
  await deleteFaceData(deps.storage, applicationId);
  log.info('face consent withdrawn during the checks: analyses deleted', { applicationId });
  return { state };
}

/** The selfie's stored state from a match. */
function selfieStateOf(match: ReturnType<typeof matchSelfie>, before: StoredIdentity['selfie']): NonNullable<StoredIdentity['selfie']> {
  // A copy stays a copy: matching a copied photo with its set proves nothing.
  if (before?.state === 'copy') return before;
  return { ...before, state: match.result, ...(match.score !== null ? { score: match.score } : {}), threshold: match.threshold };
}

/**
 * Replacement photos sent through the replace link: validated into the photos after the last
 * one, and the photos the applicant removed marked replaced (kept in the bucket until the
 * application's photos are deleted). Recorded before the checks run, once per submission.
 */
async function applyReplacements(deps: FaceCheckDeps, app: StoredApplication, results: PhotoResult[]): Promise<PhotoResult[]> {
  const pending = app.identity!.pendingReplacements!;
  const firstIndex = results.reduce((max, r) => (r.index !== undefined && r.index >= max ? r.index + 1 : max), 0);
  const fresh = await deps.validate(app.id, pending.keys, firstIndex);
  const remove = new Set(pending.remove);
  const next = [...results.map((r) => (r.index !== undefined && remove.has(r.index) && !r.replacedAt ? { ...r, replacedAt: pending.at } : r)), ...fresh];
  const accepted = fresh.filter((r) => r.accepted).length;
  const { pendingReplacements: _done, ...identity } = app.identity!;
  if (!(await deps.store.applyReplacements(app.id, pending.at, { photoResults: next, identity, validPhotoCount: setPhotosOf(next).length }))) {
    throw new RaceLostError(`the replacements of ${app.id} sent at ${pending.at} were applied by another check`);
  }
  await deps.store.addHistory(app.id, 'photos replaced', { note: `${accepted} new photos accepted of ${fresh.length}, ${remove.size} removed` });
  await Promise.all(pending.keys.map((k) => deps.storage.remove(k)));
  return next;
}
