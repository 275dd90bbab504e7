// The talent's own likeness controls (docs/royalties.md#likeness): the state, pause and resume,
// removal with notice and its cancellation. The routes in functions/likeness/routes/ are thin
// adapters over these.
import type { Likeness } from '../../events/accounts';
import type { LikenessControls } from '../../events/generations';
import { likenessState, type LikenessStatus } from '../../events/likeness';
import {
  ALREADY_REMOVED_MESSAGE,
  FOUNDING_REMOVAL_WARNING,
  CONTRACT_NO_REMOVAL_MESSAGE,
  NO_REMOVAL_PENDING_MESSAGE,
  REMOVAL_ALREADY_REQUESTED_MESSAGE,
} from '../../events/royalty-values';
import { deliverNow, type Outbox } from '../shared/email';
import { callerTalent, NO_LIKENESS_MESSAGE, ownChangeRule, type Account, type CallerTalentDeps } from '../accounts';
import type { AccountCaller } from '../shared/auth';
import { ConflictError, ValidationError } from '../shared/errors';
import { log } from '../shared/log';
import type { RateLimiter } from '../shared/rate-limit';
import type { TalentStore } from '../catalog';
import { dayText, removalRequestedEmail } from './emails/removal';

export interface LikenessControlDeps extends CallerTalentDeps {
  talent: Pick<TalentStore, 'getForGeneration' | 'setPaused' | 'requestRemoval' | 'cancelRemoval'>;
  now: () => Date;
}

/** A change the talent makes counts against their hourly limit on likeness changes (429 beyond it). */
export interface LikenessChangeDeps extends LikenessControlDeps {
  limit: RateLimiter;
}

export interface RemovalDeps extends LikenessChangeDeps {
  /** A removal's notice (stage config: 30 days; seconds on the twin). */
  removalNoticeSeconds: number;
  siteUrl: string;
  /** Where the email is written, with the request, and sent from (functions/shared/email.ts). */
  outbox: Pick<Outbox, 'entry' | 'deliver'>;
}

interface Current {
  account: Account;
  likeness: Likeness;
  controls: LikenessControls;
}

/** The caller's account, accepted standing and likeness controls; 403 / 409 as the other `/me` likeness routes. */
async function current(deps: LikenessControlDeps, caller: AccountCaller): Promise<Current> {
  const { account, likeness } = await callerTalent(deps, caller);
  const found = await deps.talent.getForGeneration(likeness.talentId);
  if (!found) throw new ConflictError(NO_LIKENESS_MESSAGE);
  return { account, likeness: { ...likeness, founding: found.talent.founding }, controls: found.controls };
}

/** The contract the talent may see: in force or starting (its term not over at `now`). */
function visibleContract(controls: LikenessControls, now: Date): LikenessStatus['frozen'] {
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

/** `GET /me/likeness`. */
export async function getLikenessStatus(deps: LikenessControlDeps, caller: AccountCaller): Promise<LikenessStatus> {
  const { likeness, controls } = await current(deps, caller);
  return likenessStatusOf(likeness, controls, deps.now());
}

/** Counts a change against the caller's hourly limit; the account's id is the caller's `sub`. */
const limitChange = (deps: LikenessChangeDeps, caller: AccountCaller) => deps.limit([ownChangeRule('likeness', caller.sub)]);

/** The controls again after a write (consistent read), as the answer. */
async function reread(deps: LikenessControlDeps, likeness: Likeness): Promise<LikenessStatus> {
  const found = await deps.talent.getForGeneration(likeness.talentId);
  if (!found) throw new ConflictError(NO_LIKENESS_MESSAGE);
  return likenessStatusOf({ ...likeness, founding: found.talent.founding }, found.controls, deps.now());
}

/**
 * `POST /me/likeness/pause` and `/resume`: idempotent (pausing a paused likeness answers the
 * same). A paused likeness cannot be generated; licenses already issued are untouched.
 */
export async function setLikenessPaused(deps: LikenessChangeDeps, caller: AccountCaller, paused: boolean): Promise<LikenessStatus> {
  await limitChange(deps, caller);
  const { likeness, controls } = await current(deps, caller);
  if (likenessState(controls, deps.now()) === 'removed') throw new ConflictError(ALREADY_REMOVED_MESSAGE);
  if (!(await deps.talent.setPaused(likeness.talentId, paused))) throw new ConflictError(ALREADY_REMOVED_MESSAGE);
  log.info(paused ? 'likeness paused' : 'likeness resumed', { talentId: likeness.talentId });
  return reread(deps, likeness);
}

/** Why a removal cannot be requested now, or undefined when it can. */
function removalRefusal(controls: LikenessControls, now: Date): string | undefined {
  if (likenessState(controls, now) === 'removed') return ALREADY_REMOVED_MESSAGE;
  if (controls.removal) return REMOVAL_ALREADY_REQUESTED_MESSAGE;
  const contract = visibleContract(controls, now);
  if (contract) return CONTRACT_NO_REMOVAL_MESSAGE(contract.brandName, dayText(contract.until));
  return undefined;
}

/** The 400 a founding talent gets without confirming the loss of their rate. */
export const FOUNDING_CONFIRMATION_MESSAGE = `acceptFoundingRateLoss must be true: ${FOUNDING_REMOVAL_WARNING}`;

/**
 * `POST /me/likeness/removal`: records the request with its notice (one conditional write, so a
 * double request or a contract recorded meanwhile is refused) and, in the same transaction, the
 * email telling the talent when it takes effect and how to cancel, which is then sent. Refused
 * while an exclusive contract is in force or starting; founding talent must confirm they give up
 * the 35% rate.
 */
export async function requestRemoval(deps: RemovalDeps, caller: AccountCaller, request: { acceptFoundingRateLoss?: boolean }): Promise<LikenessStatus> {
  await limitChange(deps, caller);
  const { account, likeness, controls } = await current(deps, caller);
  const now = deps.now();
  const refusal = removalRefusal(controls, now);
  if (refusal) throw new ConflictError(refusal);
  if (likeness.founding && request.acceptFoundingRateLoss !== true) {
    throw new ValidationError(FOUNDING_CONFIRMATION_MESSAGE, { acceptFoundingRateLoss: FOUNDING_REMOVAL_WARNING });
  }
  const removal = { requestedAt: now.toISOString(), effectiveAt: new Date(now.getTime() + deps.removalNoticeSeconds * 1000).toISOString() };
  const email = removalRequestedEmail({ name: account.full_name || likeness.name, effectiveAt: removal.effectiveAt, founding: likeness.founding, siteUrl: deps.siteUrl });
  const mail = deps.outbox.entry(`removal-requested#${likeness.talentId}#${removal.requestedAt}`, account.email, email);
  if (!(await deps.talent.requestRemoval(likeness.talentId, removal, [mail]))) {
    // Something changed since the read (another request, a contract): say what.
    const found = await deps.talent.getForGeneration(likeness.talentId);
    throw new ConflictError((found && removalRefusal(found.controls, now)) ?? REMOVAL_ALREADY_REQUESTED_MESSAGE);
  }
  log.info('likeness removal requested', { talentId: likeness.talentId, effectiveAt: removal.effectiveAt });
  // The request stands with its email in the outbox: one that cannot go now, the schedule sends.
  await deliverNow(deps.outbox, [mail]);
  return reread(deps, likeness);
}

/** `DELETE /me/likeness/removal`: cancels a removal while its notice runs; too late once it has taken effect. */
export async function cancelRemoval(deps: LikenessChangeDeps, caller: AccountCaller): Promise<LikenessStatus> {
  await limitChange(deps, caller);
  const { likeness, controls } = await current(deps, caller);
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
