import { LICENSE_ID_MESSAGE, LICENSE_ID_PATTERN, LICENSE_NOT_FOUND_MESSAGE } from '../../../../events/generation-values';
import {
  LICENSE_CHECK_EMPTY_MESSAGE,
  LICENSE_CHECK_MAX_BYTES,
  LICENSE_CHECK_TOO_LARGE_MESSAGE,
  LICENSE_CHECK_TYPE_MESSAGE,
  LICENSE_CHECK_TYPES,
  LICENSE_CHECKS_MESSAGE,
  LICENSE_CHECKS_PER_HOUR,
  type LicenseFileCheck,
} from '../../../../events/license-check';
import { NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../../../shared/errors';
import type { RateLimiter, RateRule } from '../../../shared/rate-limit';
import { imageSize, pixelHashOf } from '../../../shared/pixel-hash';
import { licensePixelHash, type PixelHashDeps } from '../../license-files';
import type { GenerationStore } from '../../store';
import { publicLicenseView } from '../../views';

export interface CheckDeps extends Omit<PixelHashDeps, 'pixelHashOf'> {
  generations: Pick<GenerationStore, 'getLicense'>;
  limit: RateLimiter;
}

export interface CheckRequest {
  /** The license id the file's XMP names (the path's `{id}`). */
  id: string;
  /** The request's Content-Type, if it sent one. */
  contentType?: string;
  /** The file: the request body's bytes. */
  file?: Buffer;
}

const checksRule = (ip: string): RateRule => ({
  name: 'license-check.ip',
  subject: ip,
  limit: LICENSE_CHECKS_PER_HOUR,
  windowSeconds: 60 * 60,
  message: LICENSE_CHECKS_MESSAGE,
});

/**
 * `POST /licenses/{id}/check` (decision 035): compares the file sent with the licensed image by
 * their pixel hashes, so a real license id pasted into another image's metadata is caught, and
 * the licensed image re-saved with its metadata stripped or changed still matches. The licensed
 * image's hash is computed from its file the first time and kept on the license (it outlives an
 * erasure). The file is compared in memory and never stored. Each well-formed request counts
 * against the network's hourly limit before anything is read or decoded.
 */
export async function checkLicenseFile(deps: CheckDeps, request: CheckRequest, caller: { ip: string }): Promise<LicenseFileCheck> {
  if (!LICENSE_ID_PATTERN.test(request.id)) throw new ValidationError(LICENSE_ID_MESSAGE, { id: LICENSE_ID_MESSAGE });
  const type = (request.contentType ?? '').split(';')[0].trim().toLowerCase();
  if (!(LICENSE_CHECK_TYPES as readonly string[]).includes(type)) throw new UnsupportedMediaTypeError(LICENSE_CHECK_TYPE_MESSAGE);
  const file = request.file;
  if (!file?.length) throw new ValidationError(LICENSE_CHECK_EMPTY_MESSAGE);
  if (file.length > LICENSE_CHECK_MAX_BYTES) throw new PayloadTooLargeError(LICENSE_CHECK_TOO_LARGE_MESSAGE);
  await deps.limit([checksRule(caller.ip)]);

  const license = await deps.generations.getLicense(request.id);
  if (!license) throw new NotFoundError(LICENSE_NOT_FOUND_MESSAGE);
  const view = publicLicenseView(license);
  // The sent file must be an image either way: a wrong file is the caller's to know about.
  const size = await imageSize(file);
  const stored = license.pixelHash ?? (license.erasedAt ? undefined : await licensePixelHash({ ...deps, pixelHashOf }, license));
  if (!stored) return { license: view, file: 'not-comparable' };
  // Another size is another image: no need to decode it.
  if (size.width !== stored.width || size.height !== stored.height) return { license: view, file: 'other-image' };
  const sent = await pixelHashOf(file);
  return { license: view, file: sent.sha256 === stored.sha256 ? 'licensed-image' : 'other-image' };
}
