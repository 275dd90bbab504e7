import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { LICENSE_CHECK_PATH, LICENSE_SCOPE, PREDICTION_FAILED_MESSAGE, licensePath } from '../../../../events/generation-values';
import type { ROYALTY_PLANS } from '../../../../events/talent-values';
import type { PredictionApi } from '../../../shared/replicate';
import { log } from '../../../shared/log';
import { ConflictError } from '../../../shared/errors';
import { LinkedWriteRefusedError, type CreditLedger } from '../../../accounts';
import type { GenerationImageRecord, GenerationStore, LicenseRecord } from '../../store';
import { PredictionFailed } from '../../errors';
import { commitKey, generationOf, releaseKey } from '../../prediction';
import { accrualOf, isOwnAccount } from './accrual';
import type { ImageCredentials } from './credentials';
import type { LicenseXmp } from './xmp';

type RoyaltyPlan = (typeof ROYALTY_PLANS)[number];

/** The talent as delivery needs them: their royalty plan now, and their account's address (to know their own generations). */
interface DeliveryTalent {
  royaltyPlan?: RoyaltyPlan;
  email?: string;
  /** The talent's model the generation ran (Replicate model or version), named in the Content Credentials. */
  model?: string;
}

export interface DeliverImagesDeps {
  store: GenerationStore;
  ledger: CreditLedger;
  replicate: () => Promise<PredictionApi>;
  /** Re-encodes an output as PNG with the license's XMP. */
  encode: (image: Buffer, license: LicenseXmp) => Promise<Buffer>;
  /** Adds the signed Content Credentials (C2PA) to an encoded PNG (decision 062). */
  sign: (png: Buffer, credentials: ImageCredentials) => Promise<Buffer>;
  /** Puts a delivered file into the private images bucket. */
  putImage: (key: string, body: Buffer) => Promise<void>;
  siteUrl: string;
  /** The catalog table: the talent's `generationCount` grows by the images delivered. */
  talentTable: string;
  /** The talent's royalty plan now (recorded on each accrual) and address; undefined when the talent is not in the catalog. */
  talentOf: (talentId: string) => Promise<DeliveryTalent | undefined>;
  now: () => Date;
}

/**
 * The license id of a generation's image: `lic_` and 22 base64url characters of a hash of the
 * (random) generation id and the image's index, so a retried delivery finds the same license and
 * the id reveals neither.
 */
export function licenseIdOf(generationId: string, index: number): string {
  return `lic_${createHash('sha256').update(`${generationId}:${index}`).digest('base64url').slice(0, 22)}`;
}

/** Where a delivered image lives in the images bucket. */
const imageKey = (accountId: string, generationId: string, licenseId: string) => `generations/${accountId}/${generationId}/${licenseId}.png`;


/** The ledger key of one image's credit: committed once, in the transaction that writes its license. */
export const imageCommitKey = (generationId: string, index: number) => `gen:${generationId}:commit:${index}`;

/** Milliseconds since `from` (performance.now), whole. */
const since = (from: number) => Math.round(performance.now() - from);

/** An image's file, made (downloaded, encoded with its XMP, signed) before it is stored; undefined when the output is left out. */
interface MadeFile {
  png: Buffer;
  downloadMs: number;
  encodeMs: number;
  signMs: number;
}

/**
 * Step DeliverImages: copies the outputs at once (Replicate deletes them after an hour) into our
 * bucket, each as a PNG with its license in the XMP and its signed Content Credentials, then writes,
 * in ONE transaction per image, its license, the talent's usage for the month, its royalty accrual
 * (on the value of the exact credit it consumed, decision 036), the image on its generation, and
 * the commit of that credit (key per image). The files are made side by side; they are stored and
 * committed in the images' order, each image's transaction while the next file is stored, so a
 * failure after some images leaves exactly the first ones licensed and paid for (the rest is
 * released here, or by RecordFailure when the step fails for good) and the credits go to the images
 * oldest first. An output that cannot be downloaded or read is left out (after the client's
 * retries) and its credit released. The generation becomes `succeeded` and the talent's count
 * grows, once. A retried step skips the images it delivered: nothing is written or paid twice.
 * What each part took is logged ("images delivered", docs/generation.md#delivery).
 */
export async function deliverImages(deps: DeliverImagesDeps, generationId: string): Promise<{ delivered: number }> {
  const startedAt = performance.now();
  const generation = await generationOf(deps.store, generationId);
  if (generation.status === 'succeeded') return { delivered: generation.images.length };
  const prediction = generation.prediction;
  if (prediction?.status !== 'succeeded') throw new Error('The generation has no succeeded prediction to deliver');
  const issuedAt = deps.now().toISOString();
  const { accountId, count } = generation;
  const outputs = prediction.output.slice(0, count);
  const licenseIds = outputs.map((_, index) => licenseIdOf(generationId, index));
  // The plan at issue: a later change (removal ends the founding rate) does not reach these licenses.
  // Which images an earlier attempt licensed: read strongly consistent, side by side.
  const [replicate, talent, licensed] = await Promise.all([
    deps.replicate(),
    deps.talentOf(generation.talentId),
    Promise.all(licenseIds.map((id) => deps.store.hasLicense(id))),
  ]);
  // A talent earns nothing on images their own account makes (and those do not raise their count).
  const ownAccount = isOwnAccount(generation.clientEmail, talent?.email);
  const readMs = since(startedAt);

  /** Downloads an output and makes the file to deliver: undefined when it cannot be downloaded or read. */
  const makeFile = async (url: string, index: number): Promise<MadeFile | undefined> => {
    const licenseId = licenseIds[index];
    const licenseUrl = `${deps.siteUrl}${licensePath(licenseId)}`;
    const t0 = performance.now();
    let png: Buffer;
    let downloadMs: number;
    try {
      const output = await replicate.fetchOutput(url);
      downloadMs = since(t0);
      png = await deps.encode(output, { licenseId, talentId: generation.talentId, talentName: generation.talentName, licenseUrl });
    } catch (err) {
      log.warn('an output could not be delivered; its credit is released', { generationId, index, error: (err as Error)?.name });
      return undefined;
    }
    const t1 = performance.now();
    // The manifest binds every byte written before it (the XMP included); the pixels stay, so the
    // license check's pixel hash and the report matching read the signed file as the image.
    const signed = await deps.sign(png, {
      licenseId,
      talentId: generation.talentId,
      talentName: generation.talentName,
      licensee: generation.licensee,
      issuedAt,
      scope: LICENSE_SCOPE,
      licenseUrl,
      checkUrl: `${deps.siteUrl}${LICENSE_CHECK_PATH}`,
      ...(talent?.model ? { model: talent.model } : {}),
    });
    return { png: signed, downloadMs, encodeMs: Math.round(t1 - t0) - downloadMs, signMs: since(t1) };
  };

  // Every file at once: they are independent, and the downloads and KMS calls mostly wait.
  const files = outputs.map((url, index) => (licensed[index] ? Promise.resolve(undefined) : makeFile(url, index)));
  // Stored one after the other in the images' order: image i is in the bucket only if every image
  // before it that was to be stored is. A failed put stops the ones after it.
  let putMs = 0;
  let previous: Promise<unknown> = Promise.resolve();
  const stored = files.map((file, index) => {
    const done = previous.then(async () => {
      const made = await file;
      if (!made) return undefined;
      const t = performance.now();
      await deps.putImage(imageKey(accountId, generationId, licenseIds[index]), made.png);
      putMs += since(t);
      return made;
    });
    previous = done;
    return done;
  });
  // A failure is answered once, by the first image that meets it; the promises after it are not
  // left rejected unheard (that would end the process).
  for (const p of [...files, ...stored]) p.catch(() => undefined);

  const images: GenerationImageRecord[] = [];
  const made: MadeFile[] = [];
  let commitMs = 0;
  for (const index of outputs.keys()) {
    const licenseId = licenseIds[index];
    const key = imageKey(accountId, generationId, licenseId);
    const image = { index, licenseId, key };
    const commit = { key: imageCommitKey(generationId, index), generationId, reason: `${generation.talentName}: image ${index + 1} of ${count} delivered` };
    /**
     * A license of an earlier attempt: its credit was committed with it (the commit replays), or,
     * for a license written before credits were committed per image, is committed now, unless that
     * delivery's one commit for all its images (`gen:<id>:commit`) was made or no credit is open.
     */
    const payForEarlierLicense = async () => {
      if ((await deps.ledger.used(accountId, commit.key)) || (await deps.ledger.used(accountId, commitKey(generationId)))) return;
      await deps.ledger.commit(accountId, { ...commit, credits: 1 }).catch((err: unknown) => {
        if (!(err instanceof ConflictError)) throw err;
      });
    };
    if (licensed[index]) {
      // Delivered by an earlier attempt, with its credit.
      await payForEarlierLicense();
      images.push(image);
      continue;
    }
    const file = await stored[index];
    if (!file) continue;
    made.push(file);
    const license = (credit: { valueMicros: number }): LicenseRecord => ({
      id: licenseId,
      generationId,
      index,
      key,
      talentId: generation.talentId,
      talentName: generation.talentName,
      accountId,
      licensee: generation.licensee,
      style: generation.style,
      scope: LICENSE_SCOPE,
      issuedAt,
      creditValueMicros: credit.valueMicros,
    });
    const t = performance.now();
    try {
      await deps.ledger.commitOne(accountId, commit, (credit) =>
        deps.store.licenseWrites(license(credit), generation.planId, talent?.royaltyPlan, accrualOf(credit, ownAccount), image),
      );
    } catch (err) {
      // The license exists without this commit: written before credits were committed per image.
      if (!(err instanceof LinkedWriteRefusedError)) throw err;
      await payForEarlierLicense();
    }
    commitMs += since(t);
    images.push(image);
  }
  if (images.length === 0) throw new PredictionFailed(PREDICTION_FAILED_MESSAGE);

  // What was not delivered goes back (a retry finds it released and releases nothing more). A
  // release leaves the committed credits as they are: one read tells both.
  const t = performance.now();
  const reason = `${generation.talentName}: ${images.length} of ${count} images delivered`;
  const held = await deps.ledger.reservation(accountId, generationId);
  const open = held?.open ?? 0;
  if (open > 0) await deps.ledger.release(accountId, { credits: open, key: releaseKey(generationId), generationId, reason });

  await deps.store.finishDelivered(
    generationId,
    {
      images,
      creditsSpent: held?.committed ?? 0,
      step: { step: 'DeliverImages', at: deps.now().toISOString(), detail: `${images.length} of ${count} images delivered` },
    },
    { tableName: deps.talentTable, id: generation.talentId, counted: ownAccount ? 0 : images.length },
  );
  const slowest = (part: 'downloadMs' | 'encodeMs' | 'signMs') => Math.max(0, ...made.map((f) => f[part]));
  log.info('images delivered', {
    generationId,
    images: images.length,
    stepMs: since(startedAt),
    readMs,
    // The files are made side by side: the slowest image's parts.
    downloadMs: slowest('downloadMs'),
    encodeMs: slowest('encodeMs'),
    signMs: slowest('signMs'),
    // One after the other: all of them.
    putMs,
    commitMs,
    finishMs: since(t),
  });
  return { delivered: images.length };
}
