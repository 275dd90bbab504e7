import { likenessState, type LikenessStatus } from '../../../../events/likeness';
import { ALREADY_REMOVED_MESSAGE, NO_REMOVAL_PENDING_MESSAGE } from '../../../../events/royalty-values';
import type { LikenessControls } from '../../../../events/generations';
import type { AccountCaller } from '../../../shared/auth';
import { ConflictError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import { currentLikeness, limitChange, reread, type LikenessChangeDeps } from '../../controls';

/** `DELETE /me/likeness/removal`: cancels a removal while its notice runs; too late once it has taken effect. */
export async function cancelRemoval(deps: LikenessChangeDeps, caller: AccountCaller): Promise<LikenessStatus> {
  await limitChange(deps, caller);
  const { likeness, controls } = await currentLikeness(deps, caller);
  const now = deps.now();
  const refusal = (c: LikenessControls) =>
    likenessState(c, now) === 'removed' ? ALREADY_REMOVED_MESSAGE : !c.removal ? NO_REMOVAL_PENDING_MESSAGE : undefined;
  const before = refusal(controls);
  if (before) throw new ConflictError(before);
  if (!(await deps.talent.cancelRemoval(likeness.talentId, now.toISOString()))) {
    const found = await deps.talent.getForGeneration(likeness.talentId);
    throw new ConflictError((found && refusal(found.controls)) ?? NO_REMOVAL_PENDING_MESSAGE);
  }
  log.info('likeness removal cancelled', { talentId: likeness.talentId });
  return reread(deps, likeness);
}
