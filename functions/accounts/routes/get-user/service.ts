import type { AdminUserDetail } from '../../../../events/accounts';
import type { AccountStore } from '../../store';
import { userDetail } from '../../users';

/** `GET /admin/users/{id}`: one account with its ledger and audit trail; 404 for none. */
export const getUser = (store: Pick<AccountStore, 'detail'>, id: string): Promise<AdminUserDetail> => userDetail(store, id);
