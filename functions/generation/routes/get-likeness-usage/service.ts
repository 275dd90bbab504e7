import type { LikenessUsage } from '../../../../events/generations';
import { callerTalent, type CallerTalentDeps } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import type { GenerationStore } from '../../store';

export interface UsageDeps extends CallerTalentDeps {
  generations: Pick<GenerationStore, 'usageByMonth'>;
}

/** `GET /me/likeness-usage`: images made with an accepted talent's likeness, by UTC month (newest first), and in all. */
export async function likenessUsage(deps: UsageDeps, caller: AccountCaller): Promise<LikenessUsage> {
  const { likeness } = await callerTalent(deps, caller);
  const months = (await deps.generations.usageByMonth(likeness.talentId)).filter((m) => m.images > 0).sort((a, b) => b.month.localeCompare(a.month));
  return { talentId: likeness.talentId, total: months.reduce((sum, m) => sum + m.images, 0), months };
}
