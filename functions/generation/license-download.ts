import { LICENSE_ID_PATTERN, LICENSE_NOT_FOUND_MESSAGE } from '../../events/generation-values';
import type { LicenseDownload } from '../../events/generations';
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
  return licenseDownload(license, deps.signer);
}
