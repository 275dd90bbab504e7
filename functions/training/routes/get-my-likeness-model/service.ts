import type { LikenessModelView } from '../../../../events/training';
import { callerTalent } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { modelViewOf, type TalentModelDeps } from '../../talent-model';

/** `GET /me/likeness-model`: the caller's model, its latest training's samples and the live version's. */
export async function getMyLikenessModel(deps: TalentModelDeps, caller: AccountCaller): Promise<LikenessModelView> {
  const { likeness: { talentId } } = await callerTalent(deps, caller);
  return modelViewOf(deps, talentId);
}
