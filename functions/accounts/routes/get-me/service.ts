import type { MeResponse } from '../../../../events/accounts';
import { planById } from '../../../../events/plans';
import { currentAccount, talentStanding, type StandingDeps } from '../../access';
import type { AccountCaller } from '../../../shared/auth';
import type { AccountStore } from '../../store';
import { profileOf } from '../../profile';
import type { CreditLedger } from '../../credits';

export interface MeDeps {
  accounts: Pick<AccountStore, 'get' | 'create' | 'pendingPlanRequest'>;
  ledger: Pick<CreditLedger, 'balance'>;
  standing: StandingDeps;
}

/** `GET /me`: the profile; a client's plan, balance and pending plan request; a talent's standing. */
export async function getMe(deps: MeDeps, caller: AccountCaller): Promise<MeResponse> {
  const account = await currentAccount(deps.accounts, caller);
  const profile = profileOf(account);
  if (caller.role === 'talent') return { profile, role: 'talent', talent: await talentStanding(deps.standing, caller) };
  const [balance, planRequest] = await Promise.all([deps.ledger.balance(account.id), deps.accounts.pendingPlanRequest(account.id)]);
  const plan = planById(account.plan ?? 'free');
  return {
    profile,
    role: 'client',
    plan: { id: plan.id, name: plan.name },
    credits: { balance },
    ...(planRequest ? { planRequest } : {}),
  };
}
