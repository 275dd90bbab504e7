// The accepted talent behind a `/me/payouts` caller: their talent id and name. The connected
// account is always theirs, found by that id: its id never comes from the browser.
import { currentAccount, NO_LIKENESS_MESSAGE, requireAcceptedTalent, type AccountStore, type StandingDeps } from '../accounts';
import type { AccountCaller } from '../shared/auth';
import { ConflictError } from '../shared/errors';

export interface TalentCallerDeps {
  accounts: Pick<AccountStore, 'get' | 'create'>;
  standing: StandingDeps;
}

export async function myTalent(deps: TalentCallerDeps, caller: AccountCaller): Promise<{ talentId: string; name: string }> {
  await currentAccount(deps.accounts, caller);
  const { likeness } = await requireAcceptedTalent(deps.standing, caller);
  if (!likeness) throw new ConflictError(NO_LIKENESS_MESSAGE);
  const talent = await deps.standing.talent.get(likeness.talentId);
  if (!talent) throw new ConflictError(NO_LIKENESS_MESSAGE);
  return { talentId: likeness.talentId, name: talent.name };
}
