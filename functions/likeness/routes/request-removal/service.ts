import type { LikenessControls } from '../../../../events/generations';
import { likenessState, type LikenessStatus } from '../../../../events/likeness';
import {
  ALREADY_REMOVED_MESSAGE,
  CONTRACT_NO_REMOVAL_MESSAGE,
  FOUNDING_REMOVAL_WARNING,
  REMOVAL_ALREADY_REQUESTED_MESSAGE,
} from '../../../../events/royalty-values';
import type { AccountCaller } from '../../../shared/auth';
import { deliverNow, type Outbox } from '../../../shared/email';
import { ConflictError, ValidationError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import { currentLikeness, limitChange, reread, visibleContract, type LikenessChangeDeps } from '../../controls';
import { dayText, removalRequestedEmail } from '../../emails/removal';

export interface RemovalDeps extends LikenessChangeDeps {
  /** A removal's notice (stage config: 30 days; seconds on the twin). */
  removalNoticeSeconds: number;
  siteUrl: string;
  /** Where the email is written, with the request, and sent from (functions/shared/email.ts). */
  outbox: Pick<Outbox, 'entry' | 'deliver'>;
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
  const { account, likeness, controls } = await currentLikeness(deps, caller);
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
