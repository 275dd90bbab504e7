// What the likeness routes (functions/likeness/routes/get-likeness, pause-likeness, resume-likeness, request-removal,
// cancel-removal) share: the stores the likeness controls read and write, and the limiter of the
// per-account limit on changes. Each route parses its own configuration, with exactly the
// settings it needs.
import { accountStores, type AccountTables } from '../accounts';
import { documentClient } from '../shared/clients';
import { rateLimiter } from '../shared/rate-limit';
import type { LikenessChangeDeps, LikenessControlDeps } from './controls';

/** The caller's account, standing and catalog stores and the clock, from a route's parsed tables. */
export function likenessControlDeps(tables: AccountTables): LikenessControlDeps {
  return { ...accountStores(documentClient(), tables), now: () => new Date() };
}

/** The same with the rate limiter, for the routes that change the likeness (each change is counted). */
export function likenessChangeDeps(config: AccountTables & { RATE_LIMITS_TABLE: string }): LikenessChangeDeps {
  return { ...likenessControlDeps(config), limit: rateLimiter(documentClient(), config.RATE_LIMITS_TABLE) };
}
