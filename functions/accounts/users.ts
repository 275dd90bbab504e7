// What the console's Users routes share: the account named by the path, the admin acting, and
// the detail every change answers with.
import type { AdminUserDetail } from '../../events/accounts';
import type { Caller } from '../shared/auth';
import { NotFoundError } from '../shared/errors';
import type { HttpEvent } from '../shared/http';
import { ACCOUNT_NOT_FOUND_MESSAGE, type AccountStore, type Actor } from './store';

/** Account ids are Cognito `sub`s (UUIDs); anything else names no account. */
const ACCOUNT_ID = /^[A-Za-z0-9-]{1,64}$/;

/** The `{id}` of an `/admin/users/{id}` route; an id no account can have is a 404 at once. */
export function accountIdOf(event: HttpEvent): string {
  const id = event.pathParameters?.id ?? '';
  if (!ACCOUNT_ID.test(id)) throw new NotFoundError(ACCOUNT_NOT_FOUND_MESSAGE);
  return id;
}

/** The admin making a change, as the audit and the ledger record them (by email). */
export function actorOf(caller: Caller): Actor {
  return { sub: caller.sub, email: caller.email ?? caller.sub };
}

/** One account for the console: the summary, its latest ledger entries and every admin change. */
export async function userDetail(store: Pick<AccountStore, 'detail'>, id: string): Promise<AdminUserDetail> {
  const detail = await store.detail(id);
  if (!detail) throw new NotFoundError(ACCOUNT_NOT_FOUND_MESSAGE);
  return detail;
}
