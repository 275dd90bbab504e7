import type { LicenseDownload } from '../../../../events/generations';
import { currentAccount, type AccountStore } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { downloadLicense, type DownloadDeps } from '../../license-download';

/** `GET /licenses/{id}/download` (clients): the caller's own license's file; 404 for anyone else's. */
export async function myLicenseDownload(deps: DownloadDeps & { accounts: Pick<AccountStore, 'get' | 'create'> }, caller: AccountCaller, id: string): Promise<LicenseDownload> {
  const account = await currentAccount(deps.accounts, caller);
  return downloadLicense(deps, { accountId: account.id }, id);
}
