import type { LikenessStatus } from '../../../../events/likeness';
import type { AccountCaller } from '../../../shared/auth';
import { currentLikeness, likenessStatusOf, type LikenessControlDeps } from '../../controls';

/** `GET /me/likeness`: the likeness's state, pause, removal and contract as the talent sees them. */
export async function getLikenessStatus(deps: LikenessControlDeps, caller: AccountCaller): Promise<LikenessStatus> {
  const { likeness, controls } = await currentLikeness(deps, caller);
  return likenessStatusOf(likeness, controls, deps.now());
}
