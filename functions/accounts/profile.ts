import type { Profile } from '../../events/accounts';
import type { Account } from './store';

/** An account's profile as `/me`, `PATCH /me` and the talent's data export answer it. */
export const profileOf = (account: Account): Profile => ({
  id: account.id,
  full_name: account.full_name,
  email: account.email,
  createdAt: account.createdAt,
});
