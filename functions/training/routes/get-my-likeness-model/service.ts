import type { LikenessModelView } from '../../../../events/training';
import type { AccountCaller } from '../../../shared/auth';
import { callerTalent, modelViewOf, type TalentModelDeps } from '../../talent-model';

/** `GET /me/likeness-model`: the caller's model, its latest training's samples and the live version's. */
export async function getMyLikenessModel(deps: TalentModelDeps, caller: AccountCaller): Promise<LikenessModelView> {
  const { talentId } = await callerTalent(deps, caller);
  return modelViewOf(deps, talentId);
}
