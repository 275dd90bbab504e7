import type { LikenessStatus } from '../../../../events/likeness';
import type { AccountCaller } from '../../../shared/auth';
import { setLikenessPaused, type LikenessChangeDeps } from '../../controls';

/** `POST /me/likeness/resume`: idempotent; the likeness can be generated again (unless removed). */
export const resumeLikeness = (deps: LikenessChangeDeps, caller: AccountCaller): Promise<LikenessStatus> => setLikenessPaused(deps, caller, false);
