import type { Likeness } from '../../../../events/accounts';
import { EXCLUDABLE_INDUSTRIES, type ExcludableIndustry } from '../../../../events/founding-values';
import { currentAccount, NO_LIKENESS_MESSAGE, ownChangeRule, requireAcceptedTalent, type AccountStore, type StandingDeps } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { ConflictError } from '../../../shared/errors';
import type { RateLimiter } from '../../../shared/rate-limit';

export interface LikenessDeps {
  accounts: Pick<AccountStore, 'get' | 'create'>;
  standing: StandingDeps;
  setExcludedIndustries(talentId: string, industries: ExcludableIndustry[]): Promise<boolean>;
  limit: RateLimiter;
}

/**
 * `PATCH /me/likeness`: an accepted talent sets the industries their likeness may not be used
 * for. Each change counts against their hourly limit on likeness changes (429 beyond it).
 */
export async function updateLikeness(deps: LikenessDeps, caller: AccountCaller, excluded: ExcludableIndustry[]): Promise<Likeness> {
  // The account's id is the caller's `sub`.
  await deps.limit([ownChangeRule('likeness', caller.sub)]);
  await currentAccount(deps.accounts, caller);
  const { likeness } = await requireAcceptedTalent(deps.standing, caller);
  if (!likeness) throw new ConflictError(NO_LIKENESS_MESSAGE);
  // Stored once each, in the order the product lists them.
  const industries = EXCLUDABLE_INDUSTRIES.filter((i) => excluded.includes(i));
  if (!(await deps.setExcludedIndustries(likeness.talentId, industries))) throw new ConflictError(NO_LIKENESS_MESSAGE);
  return { ...likeness, excludedIndustries: industries };
}
