import type { LicenseDownload } from '../../../../events/generations';
import { log } from '../../../shared/log';
import { downloadLicense, type DownloadDeps } from '../../license-download';

/** `GET /admin/licenses/{id}/download` (admins): any license's file, as the owner's download; who downloaded it is logged. */
export async function adminLicenseDownload(deps: DownloadDeps, id: string, by: string): Promise<LicenseDownload> {
  const download = await downloadLicense(deps, 'admin', id);
  log.info('license downloaded by an admin', { licenseId: id, by });
  return download;
}
