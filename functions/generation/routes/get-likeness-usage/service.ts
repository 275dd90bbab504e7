import type { LikenessUsage } from '../../../../events/generations';
import { currentAccount, NO_LIKENESS_MESSAGE, requireAcceptedTalent, type AccountStore, type StandingDeps } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { ConflictError } from '../../../shared/errors';
import type { GenerationStore } from '../../store';

export interface UsageDeps {
  accounts: Pick<AccountStore, 'get' | 'create'>;
  standing: StandingDeps;
  generations: Pick<GenerationStore, 'usageByMonth'>;
}

/** `GET /me/likeness-usage`: images made with an accepted talent's likeness, by UTC month (newest first), and in all. */
export async function likenessUsage(deps: UsageDeps, caller: AccountCaller): Promise<LikenessUsage> {
  await currentAccount(deps.accounts, caller);
  const { likeness } = await requireAcceptedTalent(deps.standing, caller);
  if (!likeness) throw new ConflictError(NO_LIKENESS_MESSAGE);
  const months = (await deps.generations.usageByMonth(likeness.talentId)).filter((m) => m.images > 0).sort((a, b) => b.month.localeCompare(a.month));
  return { talentId: likeness.talentId, total: months.reduce((sum, m) => sum + m.images, 0), months };
}
