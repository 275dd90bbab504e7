import type { ExclusiveContractResponse } from '../../../../events/likeness';
import { NO_CONTRACT_MESSAGE } from '../../../../events/royalty-values';
import { NotFoundError } from '../../../shared/errors';
import { endContract } from '../../contract-notices';
import { contractTalent, exclusiveContractOf, type ExclusiveContractDeps } from '../../exclusive-contracts';

/** `DELETE /admin/talent/{id}/exclusive-contract`: ends the contract early; it moves to the history with who ended it and when. */
export async function endExclusiveContract(deps: ExclusiveContractDeps, talentId: string, endedBy: string, now: Date): Promise<ExclusiveContractResponse> {
  const found = await contractTalent(deps, talentId);
  if (!found.controls.frozen?.id) throw new NotFoundError(NO_CONTRACT_MESSAGE);
  await endContract(deps, found.talent, found.controls, { endedAt: now, endedBy });
  return exclusiveContractOf(deps, talentId, now);
}
