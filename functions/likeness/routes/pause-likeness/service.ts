import type { LikenessStatus } from '../../../../events/likeness';
import type { AccountCaller } from '../../../shared/auth';
import { setLikenessPaused, type LikenessChangeDeps } from '../../controls';

/** `POST /me/likeness/pause`: idempotent; a paused likeness cannot be generated, licenses already issued are untouched. */
export const pauseLikeness = (deps: LikenessChangeDeps, caller: AccountCaller): Promise<LikenessStatus> => setLikenessPaused(deps, caller, true);
