import { CONTRACT_EXISTS_MESSAGE, CONTRACT_NOT_CLIENT_MESSAGE, CONTRACT_REMOVAL_PENDING_MESSAGE, CONTRACT_TERM_MESSAGE } from '../../../../events/royalty-values';
import type { ExclusiveContract } from '../../../../events/generations';
import { likenessState, type ExclusiveContractRequest, type ExclusiveContractResponse } from '../../../../events/likeness';
import { TALENT_NOT_FOUND_MESSAGE } from '../../../../events/talent-values';
import { ConflictError, NotFoundError, ValidationError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import { TERM_ENDED_BY, endContract, notifyStart } from '../../contract-notices';
import { contractTalent, exclusiveContractOf, type ExclusiveContractDeps } from '../../exclusive-contracts';

/** A contract cannot be recorded for a talent whose likeness is removed. */
export const CONTRACT_REMOVED_MESSAGE = 'This talent’s likeness has been removed; a contract cannot start.';

/**
 * `POST /admin/talent/{id}/exclusive-contract`: records an exclusive contract for a client account. The term
 * must end after it starts and in the future; the talent must exist, not be removed or have a
 * removal pending, and have no contract in force or starting. A contract starting now is told to
 * the talent at once (else the likeness schedule tells them when it starts).
 */
export async function recordExclusiveContract(deps: ExclusiveContractDeps, talentId: string, request: ExclusiveContractRequest, recordedBy: string, now: Date): Promise<ExclusiveContractResponse> {
  const startsAt = request.startsAt ?? now.toISOString();
  if (Date.parse(request.until) <= Date.parse(startsAt) || Date.parse(request.until) <= now.getTime()) {
    throw new ValidationError(CONTRACT_TERM_MESSAGE, { until: CONTRACT_TERM_MESSAGE });
  }
  const found = await contractTalent(deps, talentId);
  const state = likenessState(found.controls, now);
  if (state === 'removed') throw new ConflictError(CONTRACT_REMOVED_MESSAGE);
  if (found.controls.removal) throw new ConflictError(CONTRACT_REMOVAL_PENDING_MESSAGE);
  if (found.controls.frozen) {
    if (Date.parse(found.controls.frozen.until) > now.getTime()) throw new ConflictError(CONTRACT_EXISTS_MESSAGE);
    // The previous contract's term is over but not archived yet: archive it now (as the schedule would).
    await endContract(deps, found.talent, found.controls, { endedAt: new Date(found.controls.frozen.until), endedBy: TERM_ENDED_BY });
  }
  const brand = await deps.accounts.get(request.accountId);
  if (!brand || brand.role !== 'client') throw new ValidationError(CONTRACT_NOT_CLIENT_MESSAGE, { accountId: CONTRACT_NOT_CLIENT_MESSAGE });

  const contract: ExclusiveContract = {
    id: deps.newId(),
    accountId: request.accountId,
    brandName: request.brandName,
    startsAt,
    until: request.until,
    recordedBy,
    recordedAt: now.toISOString(),
  };
  const outcome = await deps.talent.setExclusiveContract(talentId, contract);
  if (outcome === 'not-found') throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  if (outcome === 'conflict') {
    // Someone else got there first: say what stands in the way now.
    const again = await contractTalent(deps, talentId);
    if (again.controls.removedAt) throw new ConflictError(CONTRACT_REMOVED_MESSAGE);
    throw new ConflictError(again.controls.removal ? CONTRACT_REMOVAL_PENDING_MESSAGE : CONTRACT_EXISTS_MESSAGE);
  }
  log.info('exclusive contract recorded', { talentId, contractId: contract.id, startsAt, until: contract.until });
  if (Date.parse(startsAt) <= now.getTime()) {
    try {
      await notifyStart(deps, found.talent, { ...found.controls, frozen: contract }, now);
    } catch (err) {
      // The contract stands; the likeness schedule sends the notice on its next run.
      log.error('the contract-started email could not be sent now', { talentId, error: err instanceof Error ? err.name : String(err) });
    }
  }
  return exclusiveContractOf(deps, talentId, now);
}
