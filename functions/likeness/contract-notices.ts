// Exclusive contracts (docs/royalties.md#exclusive-contracts): what happens at a contract's
// start and end besides the rules themselves. The rules apply by time alone
// (events/likeness.ts: CheckPolicy refuses other clients, the library hides the talent); this
// module tells the talent when a contract starts and, at the end of its term, moves it to the
// talent's contract history, clears it and tells the talent. Each email is written to the outbox
// in the same transaction as the change it tells of, then sent (functions/shared/email.ts,
// decision 041): a change never loses its email. The hourly likeness schedule
// (functions/likeness/triggers/likeness-schedule/) calls `runContractNotices`; the console's
// routes use `notifyStart` and `endContract` for a contract starting now or ended early. The
// current contract is the controls' `frozen` field (the catalog item's stored attribute).
import type { ExclusiveContract, LikenessControls } from '../../events/generations';
import { contractStartedEmail, contractEndedEmail } from './emails/contract';
import { deliverNow, type Email, type Outbox, type TransactionWrite } from '../shared/email';
import { log } from '../shared/log';
import type { EndedContract, RoyaltyStore } from '../royalties';
import { ApplicationNotFoundError, type FoundingStore } from '../founding';
import type { TalentStore } from '../catalog';

/** Who ended a contract whose term ran out (an admin's email otherwise). */
export const TERM_ENDED_BY = 'term ended';

export interface ContractNoticeDeps {
  talent: Pick<TalentStore, 'listUnderContract' | 'clearExclusiveContract' | 'markContractStartNotified'>;
  royalties: Pick<RoyaltyStore, 'addEndedContract'>;
  /** The talent's email (from the application they were accepted from); undefined when we have none. */
  emailOf(talentId: string, controls: LikenessControls): Promise<string | undefined>;
  /** Where the notices are written, with the change they tell of, and sent from. */
  outbox: Pick<Outbox, 'entry' | 'deliver'>;
  siteUrl: string;
}

/**
 * A talent's email: the founding application the talent was accepted from (the catalog item's
 * `applicationId`). Seeded talent have none: undefined, and the notice is skipped (logged).
 */
export function emailFromApplication(founding: Pick<FoundingStore, 'getApplication'>): ContractNoticeDeps['emailOf'] {
  return async (_talentId, controls) => {
    if (!controls.applicationId) return undefined;
    try {
      return (await founding.getApplication(controls.applicationId)).email;
    } catch (err) {
      if (err instanceof ApplicationNotFoundError) return undefined;
      throw err;
    }
  };
}

/** A contract as recorded by the console (every field set); undefined for an incomplete one. */
function complete(contract: LikenessControls['frozen']): ExclusiveContract | undefined {
  return contract?.id && contract.brandName && contract.startsAt && contract.recordedBy && contract.recordedAt ? (contract as ExclusiveContract) : undefined;
}

/**
 * The outbox write of a notice to the talent (`id` names the change it tells of), or undefined
 * (logged by talent id, never the address) when we have no address.
 */
async function notice(deps: ContractNoticeDeps, talentId: string, controls: LikenessControls, id: string, email: Email, what: string): Promise<TransactionWrite | undefined> {
  const to = await deps.emailOf(talentId, controls);
  if (!to) {
    log.warn('no email address for the talent; notice not sent', { talentId, what });
    return undefined;
  }
  return deps.outbox.entry(id, to, email);
}

/**
 * Tells the talent their contract started, once: the mark and the email in the outbox are one
 * conditional write (so concurrent runs write one email), and the email is sent at once; one
 * that cannot go now waits in the outbox for the schedule. Answers whether this call wrote it.
 */
export async function notifyStart(deps: ContractNoticeDeps, talent: { id: string; name: string }, controls: LikenessControls, now: Date): Promise<boolean> {
  const contract = complete(controls.frozen);
  if (!contract || contract.startNotifiedAt) return false;
  const email = contractStartedEmail({ talentName: talent.name, brandName: contract.brandName, startsAt: contract.startsAt, until: contract.until, siteUrl: deps.siteUrl });
  const mail = await notice(deps, talent.id, controls, `contract-started#${talent.id}#${contract.id}`, email, 'contract started');
  if (!(await deps.talent.markContractStartNotified(talent.id, contract.id, now.toISOString(), mail ? [mail] : []))) return false;
  if (!mail) return false;
  log.info('contract notice written', { talentId: talent.id, what: 'contract started' });
  await deliverNow(deps.outbox, [mail]);
  return true;
}

/**
 * Ends the talent's contract: writes it to the contract history (who ended it, when), then
 * clears it from the talent if it is still the same contract, with the email telling them in the
 * same transaction. Only the call that cleared it tells the talent, so an admin ending a contract
 * while the schedule ends it too sends one email. Answers whether this call ended it.
 */
export async function endContract(
  deps: ContractNoticeDeps,
  talent: { id: string; name: string },
  controls: LikenessControls,
  end: { endedAt: Date; endedBy: string },
): Promise<EndedContract | undefined> {
  const contract = complete(controls.frozen);
  if (!contract) return undefined;
  const ended: EndedContract = { ...contract, endedAt: end.endedAt.toISOString(), endedBy: end.endedBy };
  await deps.royalties.addEndedContract(talent.id, ended);
  const email = contractEndedEmail({
    talentName: talent.name,
    brandName: contract.brandName,
    startsAt: contract.startsAt,
    until: contract.until,
    endedAt: ended.endedAt,
    early: end.endedAt.getTime() < Date.parse(contract.until),
    siteUrl: deps.siteUrl,
  });
  // Cleared with its email in the outbox, or neither: the notice cannot be lost once it has ended.
  const mail = await notice(deps, talent.id, controls, `contract-ended#${talent.id}#${contract.id}`, email, 'contract ended');
  if (!(await deps.talent.clearExclusiveContract(talent.id, contract.id, mail ? [mail] : []))) return undefined;
  log.info('exclusive contract ended', { talentId: talent.id, contractId: contract.id, byTerm: end.endedBy === TERM_ENDED_BY });
  if (mail) await deliverNow(deps.outbox, [mail]);
  return ended;
}

export interface ContractNoticesResult {
  started: number;
  ended: number;
}

/**
 * The likeness schedule's part for contracts: a contract whose start has passed and was not
 * told yet -> the start email; a contract past its term -> history, cleared, the end email (the
 * talent is back in the library). Safe to run at once from two places: conditions decide.
 */
export async function runContractNotices(deps: ContractNoticeDeps, now: Date): Promise<ContractNoticesResult> {
  const result: ContractNoticesResult = { started: 0, ended: 0 };
  for (const { talent, controls } of await deps.talent.listUnderContract()) {
    const contract = controls.frozen;
    if (!contract) continue;
    if (!complete(contract)) {
      log.warn('an exclusive contract on record lacks fields; left alone', { talentId: talent.id });
      continue;
    }
    try {
      if (Date.parse(contract.until) <= now.getTime()) {
        if (await endContract(deps, talent, controls, { endedAt: new Date(contract.until), endedBy: TERM_ENDED_BY })) result.ended += 1;
      } else if (contract.startsAt && Date.parse(contract.startsAt) <= now.getTime() && !contract.startNotifiedAt) {
        if (await notifyStart(deps, talent, controls, now)) result.started += 1;
      }
    } catch (err) {
      // One talent's failure must not hold up the others; the next run tries again.
      log.error('an exclusive contract could not be processed', { talentId: talent.id, error: err instanceof Error ? err.name : String(err) });
    }
  }
  return result;
}
