// What the likeness routes (functions/likeness/routes/get-likeness, pause-likeness, request-removal,
// cancel-removal) share: the stores the likeness controls read and write, and the per-account
// limit on changes. Each route parses its own configuration, with exactly the settings it needs.
import { accountStores, ownChangeRule, type AccountTables } from '../accounts';
import type { AccountCaller } from '../shared/auth';
import { documentClient } from '../shared/clients';
import { rateLimiter } from '../shared/rate-limit';
import type { LikenessControlDeps } from './controls';

/** The caller's account, standing and catalog stores and the clock, from a route's parsed tables. */
export function likenessControlDeps(tables: AccountTables): LikenessControlDeps {
  return { ...accountStores(documentClient(), tables), now: () => new Date() };
}

/** A change to the caller's own likeness counts against their hourly limit (429 beyond it). */
export async function limitLikenessChange(rateLimitsTable: string, caller: AccountCaller): Promise<void> {
  // The account's id is the caller's `sub`.
  await rateLimiter(documentClient(), rateLimitsTable)([ownChangeRule('likeness', caller.sub)]);
}
