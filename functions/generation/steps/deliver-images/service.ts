import { createHash } from 'node:crypto';
import { LICENSE_SCOPE, PREDICTION_FAILED_MESSAGE, licensePath } from '../../../../events/generation-values';
import { creditValueMicros } from '../../../../events/plans';
import type { ROYALTY_PLANS } from '../../../../events/talent-values';
import type { ReplicateApi } from '../../replicate';
import { log } from '../../../shared/log';
import type { CreditLedger } from '../../../accounts';
import type { GenerationImageRecord, GenerationStore } from '../../store';
import { PredictionFailed } from '../../errors';
import { commitKey, generationOf, releaseKey } from '../../prediction';
import type { LicenseXmp } from './xmp';

type RoyaltyPlan = (typeof ROYALTY_PLANS)[number];

export interface DeliverImagesDeps {
  store: GenerationStore;
  ledger: CreditLedger;
  replicate: () => Promise<ReplicateApi>;
  /** Re-encodes an output as PNG with the license's XMP. */
  encode: (image: Buffer, license: LicenseXmp) => Promise<Buffer>;
  /** Puts a delivered file into the private images bucket. */
  putImage: (key: string, body: Buffer) => Promise<void>;
  siteUrl: string;
  /** The catalog table: the talent's `generationCount` grows by the images delivered. */
  talentTable: string;
  /** The talent's royalty plan now (recorded on each accrual); undefined when the talent is not in the catalog. */
  royaltyPlanOf: (talentId: string) => Promise<RoyaltyPlan | undefined>;
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


/**
 * Step DeliverImages: copies each output at once (Replicate deletes them after an hour) into our
 * bucket as a PNG with its license in the XMP, then records the license, the talent's usage for
 * the month and the royalty accrual in one transaction. An output that cannot be downloaded or
 * read is left out (after the client's retries). The credits of delivered images are committed
 * and the rest released; the generation becomes `succeeded` and the talent's count grows, once.
 * Every part is idempotent: a retried step writes nothing twice.
 */
export async function deliverImages(deps: DeliverImagesDeps, generationId: string): Promise<{ delivered: number }> {
  const generation = await generationOf(deps.store, generationId);
  if (generation.status === 'succeeded') return { delivered: generation.images.length };
  const prediction = generation.prediction;
  if (prediction?.status !== 'succeeded') throw new Error('The generation has no succeeded prediction to deliver');
  const replicate = await deps.replicate();
  const issuedAt = deps.now().toISOString();
  const value = creditValueMicros(generation.planId);
  // The plan at issue: a later change (removal ends the founding rate) does not reach these licenses.
  const royaltyPlan = await deps.royaltyPlanOf(generation.talentId);

  const images: GenerationImageRecord[] = [];
  for (const [index, url] of prediction.output.slice(0, generation.count).entries()) {
    const licenseId = licenseIdOf(generationId, index);
    const key = imageKey(generation.accountId, generationId, licenseId);
    let png: Buffer;
    try {
      png = await deps.encode(await replicate.fetchOutput(url), {
        licenseId,
        talentId: generation.talentId,
        talentName: generation.talentName,
        licenseUrl: `${deps.siteUrl}${licensePath(licenseId)}`,
      });
    } catch (err) {
      log.warn('an output could not be delivered; its credit is released', { generationId, index, error: (err as Error)?.name });
      continue;
    }
    await deps.putImage(key, png);
    await deps.store.addLicense(
      {
        id: licenseId,
        generationId,
        index,
        key,
        talentId: generation.talentId,
        talentName: generation.talentName,
        accountId: generation.accountId,
        licensee: generation.licensee,
        style: generation.style,
        scope: LICENSE_SCOPE,
        issuedAt,
        creditValueMicros: value,
      },
      generation.planId,
      royaltyPlan,
    );
    images.push({ index, licenseId, key });
  }
  if (images.length === 0) throw new PredictionFailed(PREDICTION_FAILED_MESSAGE);

  // Commit what was delivered, release the rest (a retry finds the commit made and commits nothing more).
  const reason = `${generation.talentName}: ${images.length} of ${generation.count} images delivered`;
  const reserved = await deps.ledger.reservation(generation.accountId, generationId);
  if (!reserved) throw new Error('The generation has no reservation to commit');
  const delivered = Math.min(images.length, reserved.reserved);
  if (reserved.committed === 0 && reserved.open > 0) {
    await deps.ledger.commit(generation.accountId, { credits: Math.min(delivered, reserved.open), key: commitKey(generationId), generationId, reason });
  }
  const open = (await deps.ledger.reservation(generation.accountId, generationId))?.open ?? 0;
  if (open > 0) await deps.ledger.release(generation.accountId, { credits: open, key: releaseKey(generationId), generationId, reason });

  await deps.store.finishDelivered(
    generationId,
    {
      images,
      creditsSpent: delivered,
      step: { step: 'DeliverImages', at: deps.now().toISOString(), detail: `${images.length} of ${generation.count} images delivered` },
    },
    { tableName: deps.talentTable, id: generation.talentId },
  );
  return { delivered: images.length };
}
