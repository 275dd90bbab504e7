import type { Likeness } from '../../../../events/accounts';
import { EXCLUDABLE_INDUSTRIES, type ExcludableIndustry } from '../../../../events/founding-values';
import { callerTalent, NO_LIKENESS_MESSAGE, ownChangeRule, type CallerTalentDeps } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { ConflictError } from '../../../shared/errors';
import type { RateLimiter } from '../../../shared/rate-limit';

export interface LikenessDeps extends CallerTalentDeps {
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
  const { likeness } = await callerTalent(deps, caller);
  // Stored once each, in the order the product lists them.
  const industries = EXCLUDABLE_INDUSTRIES.filter((i) => excluded.includes(i));
  if (!(await deps.setExcludedIndustries(likeness.talentId, industries))) throw new ConflictError(NO_LIKENESS_MESSAGE);
  return { ...likeness, excludedIndustries: industries };
}
