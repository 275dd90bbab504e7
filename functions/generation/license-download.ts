import { LICENSE_ID_PATTERN, LICENSE_NOT_FOUND_MESSAGE } from '../../events/generation-values';
import type { LicenseDownload } from '../../events/generations';
import { LICENSE_IMAGE_ERASED_MESSAGE, LICENSE_REVOKED_IMAGE_MESSAGE, LICENSE_WITHHELD_IMAGE_MESSAGE } from '../../events/license-check';
import { NotFoundError } from '../shared/errors';
import { licenseDownload, type ImageSigner } from './views';
import type { GenerationStore } from './store';

export interface DownloadDeps {
  generations: Pick<GenerationStore, 'getLicense'>;
  signer: Pick<ImageSigner, 'download'>;
}

/**
 * A license's original file as a short-lived download URL. `owner` is the client's account id
 * (their own licenses only: anyone else's answers 404 like an unknown one), or `admin`.
 */
export async function downloadLicense(deps: DownloadDeps, owner: { accountId: string } | 'admin', id: string): Promise<LicenseDownload> {
  const license = LICENSE_ID_PATTERN.test(id) ? await deps.generations.getLicense(id) : undefined;
  if (!license || (owner !== 'admin' && license.accountId !== owner.accountId)) throw new NotFoundError(LICENSE_NOT_FOUND_MESSAGE);
  // Erased with its client's data (decision 035): the license stands, the file is gone.
  if (license.erasedAt) throw new NotFoundError(LICENSE_IMAGE_ERASED_MESSAGE);
  // Revoked, or withheld while an intimate-image report waits (decision 058): the client's download is gone; a reviewer keeps theirs.
  if (owner !== 'admin' && license.revokedAt) throw new NotFoundError(LICENSE_REVOKED_IMAGE_MESSAGE);
  if (owner !== 'admin' && license.withheldBy) throw new NotFoundError(LICENSE_WITHHELD_IMAGE_MESSAGE);
  return licenseDownload(license, deps.signer);
}
