import type * as z from 'zod';
import type { AdminUserQuery, AdminUserSummary } from '../../../../events/accounts';
import type { AccountStore } from '../../store';

/**
 * `GET /admin/users?q=&role=&plan=&planRequest=pending`: accounts for the console, newest first
 * (`q` a part of the email), with each client's balance and pending plan request.
 */
export function listUsers(store: Pick<AccountStore, 'list'>, query: z.output<typeof AdminUserQuery>): Promise<{ items: AdminUserSummary[]; total: number }> {
  return store.list(query);
}
