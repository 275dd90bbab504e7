// What the console's exclusive contract routes (functions/likeness/routes/*-exclusive-contract)
// share: the talent they name, and the contract as every one of them answers it.
import type { ExclusiveContract } from '../../events/generations';
import type { ExclusiveContractResponse } from '../../events/likeness';
import { TALENT_NOT_FOUND_MESSAGE, isTalentId } from '../../events/talent-values';
import type { TalentStore } from '../catalog';
import type { RoyaltyStore } from '../royalties';
import { NotFoundError } from '../shared/errors';
import type { ContractNoticeDeps } from './contract-notices';
import type { AccountStore } from '../accounts';

/** What reading a talent's contract needs. */
export interface ContractViewDeps {
  talent: Pick<TalentStore, 'getForGeneration'>;
  royalties: Pick<RoyaltyStore, 'endedContracts'>;
}

/** What recording or ending one needs besides: the notices, the brand's account, new ids. */
export interface ExclusiveContractDeps extends ContractNoticeDeps {
  talent: ContractNoticeDeps['talent'] & Pick<TalentStore, 'getForGeneration' | 'setExclusiveContract'>;
  royalties: ContractNoticeDeps['royalties'] & Pick<RoyaltyStore, 'endedContracts'>;
  accounts: Pick<AccountStore, 'get'>;
  newId(): string;
}

/** The talent a contract route names, with their controls; 404 when unknown. */
export async function contractTalent(deps: ContractViewDeps, talentId: string) {
  const found = isTalentId(talentId) ? await deps.talent.getForGeneration(talentId) : undefined;
  if (!found) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  return found;
}

/** The contract on record (in force or starting) and the ended ones, newest first. */
export async function exclusiveContractOf(deps: ContractViewDeps, talentId: string, now: Date): Promise<ExclusiveContractResponse> {
  const { controls } = await contractTalent(deps, talentId);
  const history = (await deps.royalties.endedContracts(talentId)).sort((a, b) => b.endedAt.localeCompare(a.endedAt));
  const contract = controls.frozen as ExclusiveContract | undefined;
  // A contract past its term that the schedule has not archived yet is no longer current.
  const current = contract?.id && Date.parse(contract.until) > now.getTime() ? contract : undefined;
  return { ...(current ? { current } : {}), history };
}
