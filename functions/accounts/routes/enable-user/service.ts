import type { AdminUserDetail } from '../../../../events/accounts';
import { log } from '../../../shared/log';
import { setAccountState } from '../../account-state';

type Deps = Parameters<typeof setAccountState>[0];
type Actor = Parameters<typeof setAccountState>[4];

/** `POST /admin/users/{id}/enable`: the account enabled, with the reason and the admin in its audit (functions/accounts/account-state.ts). */
export async function enableUser(deps: Deps, id: string, reason: string | undefined, by: Actor): Promise<AdminUserDetail> {
  const detail = await setAccountState(deps, id, false, reason, by);
  log.info('account enabled', { accountId: id, by: by.sub });
  return detail;
}
