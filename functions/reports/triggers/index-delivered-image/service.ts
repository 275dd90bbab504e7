import { GENERATION_IMAGES_PREFIX } from '../../../../events/resource-names';
import { LICENSE_ID_PATTERN } from '../../../../events/generation-values';
import { log } from '../../../shared/log';
import type { Bucket } from '../../../shared/s3';
import { fingerprintImage, indexKeys, NotAnImageError } from '../../matching';
import type { ReportStore } from '../../store';

export interface ObjectCreatedDetail {
  bucket: { name: string };
  object: { key: string; size?: number };
}

export interface IndexDeps {
  store: Pick<ReportStore, 'putFingerprint'>;
  images: Pick<Bucket, 'read'>;
  now?: () => Date;
}

/** The license a delivered file is: `generations/<accountId>/<generationId>/<licenseId>.png` (thumbnails and other files are not). */
export function licenseOfKey(key: string): string | undefined {
  if (!key.startsWith(GENERATION_IMAGES_PREFIX)) return undefined;
  const name = key.split('/').at(-1) ?? '';
  const match = /^(lic_[A-Za-z0-9_-]{22})\.png$/.exec(name);
  return match && LICENSE_ID_PATTERN.test(match[1]) ? match[1] : undefined;
}

/**
 * S3 `Object Created` for a delivered image in the images bucket: keeps its fingerprint and index
 * entries, so a reported copy finds its license (decision 059). Repeatable: a second delivery of
 * the event writes the same items. A thumbnail or another object is skipped.
 */
export async function indexDeliveredImage(deps: IndexDeps, detail: ObjectCreatedDetail): Promise<'indexed' | 'skipped'> {
  // S3 writes the key URL-encoded as a form value; a delivered key has no characters that change.
  const key = decodeURIComponent(detail.object.key.replace(/\+/g, ' '));
  const licenseId = licenseOfKey(key);
  if (!licenseId) return 'skipped';
  let fingerprint;
  try {
    fingerprint = await fingerprintImage(await deps.images.read(key));
  } catch (err) {
    if (err instanceof NotAnImageError) {
      log.warn('a delivered file is not an image; not indexed', { licenseId });
      return 'skipped';
    }
    throw err;
  }
  await deps.store.putFingerprint({ licenseId, key, fingerprint, indexedAt: (deps.now ?? (() => new Date()))().toISOString() }, indexKeys(fingerprint));
  log.info('delivered image indexed', { licenseId });
  return 'indexed';
}
