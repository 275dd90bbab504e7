import type { ExclusiveContractResponse } from '../../../../events/likeness';
import { exclusiveContractOf, type ContractViewDeps } from '../../exclusive-contracts';

/** `GET /admin/talent/{id}/exclusive-contract`: the contract on record (in force or starting) and the ended ones, newest first. */
export const getExclusiveContract = (deps: ContractViewDeps, talentId: string, now: Date): Promise<ExclusiveContractResponse> => exclusiveContractOf(deps, talentId, now);
