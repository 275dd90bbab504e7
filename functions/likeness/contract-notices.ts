// Exclusive contracts (docs/royalties.md#exclusive-contracts): what happens at a contract's
// start and end besides the rules themselves. The rules apply by time alone
// (events/likeness.ts: CheckPolicy refuses other clients, the library hides the talent); this
// module tells the talent when a contract starts and, at the end of its term, moves it to the
// talent's contract history, clears it and tells the talent. The hourly likeness schedule
// (functions/likeness/triggers/likeness-schedule/) calls `runContractNotices`; the console's
// routes use `notifyStart` and `endContract` for a contract starting now or ended early. The
// current contract is the controls' `frozen` field (the catalog item's stored attribute).
import type { ExclusiveContract, LikenessControls } from '../../events/generations';
import { contractStartedEmail, contractEndedEmail } from './emails/contract';
import type { Email } from '../shared/email';
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
  send(to: string, email: Email): Promise<unknown>;
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

/** Sends a talent email; false (logged by talent id, never the address) when there is no address. */
async function tell(deps: ContractNoticeDeps, talentId: string, controls: LikenessControls, email: Email, what: string): Promise<boolean> {
  const to = await deps.emailOf(talentId, controls);
  if (!to) {
    log.warn('no email address for the talent; notice not sent', { talentId, what });
    return false;
  }
  await deps.send(to, email);
  log.info('contract notice sent', { talentId, what });
  return true;
}

/**
 * Tells the talent their contract started, once: the mark is set first with a condition (so
 * concurrent runs send one email) and taken back when sending fails (the next run retries).
 * Answers whether this call sent it.
 */
export async function notifyStart(deps: ContractNoticeDeps, talent: { id: string; name: string }, controls: LikenessControls, now: Date): Promise<boolean> {
  const contract = complete(controls.frozen);
  if (!contract || contract.startNotifiedAt) return false;
  if (!(await deps.talent.markContractStartNotified(talent.id, contract.id, now.toISOString()))) return false;
  try {
    const email = contractStartedEmail({ talentName: talent.name, brandName: contract.brandName, startsAt: contract.startsAt, until: contract.until, siteUrl: deps.siteUrl });
    return await tell(deps, talent.id, controls, email, 'contract started');
  } catch (err) {
    await deps.talent.markContractStartNotified(talent.id, contract.id, undefined);
    throw err;
  }
}

/**
 * Ends the talent's contract: writes it to the contract history (who ended it, when), then
 * clears it from the talent if it is still the same contract. Only the call that cleared it
 * tells the talent, so an admin ending a contract while the schedule ends it too sends one email.
 * Answers whether this call ended it.
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
  if (!(await deps.talent.clearExclusiveContract(talent.id, contract.id))) return undefined;
  log.info('exclusive contract ended', { talentId: talent.id, contractId: contract.id, byTerm: end.endedBy === TERM_ENDED_BY });
  const early = end.endedAt.getTime() < Date.parse(contract.until);
  const email = contractEndedEmail({
    talentName: talent.name,
    brandName: contract.brandName,
    startsAt: contract.startsAt,
    until: contract.until,
    endedAt: ended.endedAt,
    early,
    siteUrl: deps.siteUrl,
  });
  try {
    await tell(deps, talent.id, controls, email, 'contract ended');
  } catch (err) {
    // The contract has ended either way; a lost notice must not undo it.
    log.error('the contract-ended email could not be sent', { talentId: talent.id, error: err instanceof Error ? err.name : String(err) });
  }
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
