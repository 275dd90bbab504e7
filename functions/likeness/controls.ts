// What the talent's likeness routes share (docs/royalties.md#likeness): the caller's likeness
// and its controls, the state as the talent sees it, the hourly limit on changes, and pausing or
// resuming. Each route's own rule is in its service (functions/likeness/routes/*/service.ts).
import type { Likeness } from '../../events/accounts';
import type { LikenessControls } from '../../events/generations';
import { likenessState, type LikenessStatus } from '../../events/likeness';
import { ALREADY_REMOVED_MESSAGE } from '../../events/royalty-values';
import { callerTalent, NO_LIKENESS_MESSAGE, ownChangeRule, type Account, type CallerTalentDeps } from '../accounts';
import type { AccountCaller } from '../shared/auth';
import { ConflictError } from '../shared/errors';
import { log } from '../shared/log';
import type { RateLimiter } from '../shared/rate-limit';
import type { TalentStore } from '../catalog';

export interface LikenessControlDeps extends CallerTalentDeps {
  talent: Pick<TalentStore, 'getForGeneration' | 'setPaused' | 'requestRemoval' | 'cancelRemoval'>;
  now: () => Date;
}

/** A change the talent makes counts against their hourly limit on likeness changes (429 beyond it). */
export interface LikenessChangeDeps extends LikenessControlDeps {
  limit: RateLimiter;
}

interface Current {
  account: Account;
  likeness: Likeness;
  controls: LikenessControls;
}

/** The caller's account, accepted standing and likeness controls; 403 / 409 as the other `/me` likeness routes. */
export async function currentLikeness(deps: LikenessControlDeps, caller: AccountCaller): Promise<Current> {
  const { account, likeness } = await callerTalent(deps, caller);
  const found = await deps.talent.getForGeneration(likeness.talentId);
  if (!found) throw new ConflictError(NO_LIKENESS_MESSAGE);
  return { account, likeness: { ...likeness, founding: found.talent.founding }, controls: found.controls };
}

/** The contract the talent may see: in force or starting (its term not over at `now`). */
export function visibleContract(controls: LikenessControls, now: Date): LikenessStatus['frozen'] {
  const contract = controls.frozen;
  if (!contract || Date.parse(contract.until) <= now.getTime()) return undefined;
  return { brandName: contract.brandName ?? 'a brand', startsAt: contract.startsAt ?? contract.recordedAt ?? now.toISOString(), until: contract.until };
}

/** A likeness's controls as the talent sees them (`GET /me/likeness` and every action's answer). */
export function likenessStatusOf(likeness: Likeness, controls: LikenessControls, now: Date): LikenessStatus {
  const state = likenessState(controls, now);
  const contract = visibleContract(controls, now);
  const removedAt = controls.removedAt ?? (state === 'removed' ? controls.removal?.effectiveAt : undefined);
  return {
    likeness,
    state,
    paused: controls.paused === true && state !== 'removed',
    ...(controls.removal ? { removal: controls.removal } : {}),
    ...(removedAt ? { removedAt } : {}),
    // `frozen` is the answer's field for the contract (events/likeness.ts).
    ...(contract ? { frozen: contract } : {}),
    canRequestRemoval: state !== 'removed' && !controls.removal && !contract,
  };
}

/** Counts a change against the caller's hourly limit; the account's id is the caller's `sub`. */
export const limitChange = (deps: LikenessChangeDeps, caller: AccountCaller) => deps.limit([ownChangeRule('likeness', caller.sub)]);

/** The controls again after a write (consistent read), as the answer. */
export async function reread(deps: LikenessControlDeps, likeness: Likeness): Promise<LikenessStatus> {
  const found = await deps.talent.getForGeneration(likeness.talentId);
  if (!found) throw new ConflictError(NO_LIKENESS_MESSAGE);
  return likenessStatusOf({ ...likeness, founding: found.talent.founding }, found.controls, deps.now());
}

/**
 * Pauses or resumes (`POST /me/likeness/pause`, `/resume`): idempotent (pausing a paused likeness answers the
 * same). A paused likeness cannot be generated; licenses already issued are untouched.
 */
export async function setLikenessPaused(deps: LikenessChangeDeps, caller: AccountCaller, paused: boolean): Promise<LikenessStatus> {
  await limitChange(deps, caller);
  const { likeness, controls } = await currentLikeness(deps, caller);
  if (likenessState(controls, deps.now()) === 'removed') throw new ConflictError(ALREADY_REMOVED_MESSAGE);
  if (!(await deps.talent.setPaused(likeness.talentId, paused))) throw new ConflictError(ALREADY_REMOVED_MESSAGE);
  log.info(paused ? 'likeness paused' : 'likeness resumed', { talentId: likeness.talentId });
  return reread(deps, likeness);
}
