import type { Profile, UpdateMeRequest } from '../../../../events/accounts';
import { currentAccount, ownChangeRule } from '../../access';
import type { AccountCaller } from '../../../shared/auth';
import type { RateLimiter } from '../../../shared/rate-limit';
import { profileOf } from '../../profile';
import type { AccountStore } from '../../store';

/**
 * `PATCH /me`: a client or talent changes their full name; answers the profile. Each change
 * counts against the account's hourly limit on profile changes (429 beyond it).
 */
export async function updateMe(
  deps: { accounts: Pick<AccountStore, 'get' | 'create' | 'updateProfile'>; limit: RateLimiter },
  caller: AccountCaller,
  changes: UpdateMeRequest,
): Promise<Profile> {
  const account = await currentAccount(deps.accounts, caller);
  await deps.limit([ownChangeRule('profile', account.id)]);
  return profileOf(await deps.accounts.updateProfile(account.id, changes));
}
