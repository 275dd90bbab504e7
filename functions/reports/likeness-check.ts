// "Is this me?" (docs/product.md#reports-and-takedown): a signed-in talent checks an image, sent
// as a file or fetched from a public URL, against the images we delivered. The image is compared
// in memory and never stored.
import { LIKENESS_CHECKS_LIMIT_MESSAGE, LIKENESS_CHECKS_PER_ACCOUNT_PER_HOUR } from '../../events/report-values';
import type { LikenessCheckResult } from '../../events/reports';
import * as z from 'zod';
import { AccountTables, accountStores, callerTalent, type CallerTalentDeps } from '../accounts';
import type { AccountCaller } from '../shared/auth';
import { ConflictError, ForbiddenError } from '../shared/errors';
import { ONE_HOUR } from '../shared/idempotency';
import { documentClient } from '../shared/clients';
import { rateLimiter, type RateLimiter } from '../shared/rate-limit';
import { generationStore } from '../generation';
import { reportStore } from './store';
import { matchImage, type MatchDeps } from './match';

export interface LikenessCheckDeps extends MatchDeps {
  limit: RateLimiter;
  /** The caller's accounts and standing: whose likeness they are. */
  talent: CallerTalentDeps;
}

/** Counts one check against the account's hourly limit (before anything is fetched or decoded). */
/** The settings both "Is this me?" routes' functions have. */
export const LikenessCheckConfig = AccountTables.extend({ REPORTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1) });

/** What both "Is this me?" routes need, built once per container. */
export function likenessCheckDeps(config: z.infer<typeof LikenessCheckConfig>): LikenessCheckDeps {
  const doc = documentClient();
  const stores = accountStores(doc, config);
  return {
    index: reportStore(doc, config.REPORTS_TABLE),
    licenses: generationStore(doc, config.GENERATIONS_TABLE),
    limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
    talent: { accounts: stores.accounts, standing: stores.standing },
  };
}

export const countCheck = (deps: Pick<LikenessCheckDeps, 'limit'>, caller: AccountCaller) =>
  deps.limit([{ name: 'likeness-check.account', subject: caller.sub, limit: LIKENESS_CHECKS_PER_ACCOUNT_PER_HOUR, windowSeconds: ONE_HOUR, message: LIKENESS_CHECKS_LIMIT_MESSAGE }]);

/** The caller's talent id, when they are accepted talent with a likeness in the catalog. */
async function ownTalentId(deps: CallerTalentDeps, caller: AccountCaller): Promise<string | undefined> {
  try {
    return (await callerTalent(deps, caller)).talent.id;
  } catch (err) {
    if (err instanceof ForbiddenError || err instanceof ConflictError) return undefined;
    throw err;
  }
}

/** Whether the image is one we delivered: which license, whose client, when, and whether it shows the caller's likeness. */
export async function checkLikeness(deps: LikenessCheckDeps, caller: AccountCaller, image: Buffer): Promise<LikenessCheckResult> {
  const { match, license } = await matchImage(deps, image);
  if (match.verdict === 'not-ours' || !license) return { verdict: 'not-ours' };
  const talentId = await ownTalentId(deps.talent, caller);
  return {
    verdict: 'ours',
    licenseId: license.id,
    clientName: license.licensee,
    licensedAt: license.issuedAt,
    how: match.how,
    isYou: talentId !== undefined && talentId === license.talentId,
    ...(license.revokedAt ? { revokedAt: license.revokedAt } : {}),
  };
}
