import type * as z from 'zod';
import type { LedgerPage, LedgerQuery } from '../../../../events/accounts';
import type { AccountCaller } from '../../../shared/auth';
import { currentAccount } from '../../access';
import type { CreditLedger } from '../../credits';
import type { AccountStore } from '../../store';

export interface MyLedgerDeps {
  accounts: Pick<AccountStore, 'get' | 'create'>;
  ledger: Pick<CreditLedger, 'entries'>;
}

/** `GET /me/ledger?limit=&cursor=` (clients): the caller's credit ledger, newest first, one page. */
export async function myLedger(deps: MyLedgerDeps, caller: AccountCaller, query: z.output<typeof LedgerQuery>): Promise<LedgerPage> {
  const account = await currentAccount(deps.accounts, caller);
  return deps.ledger.entries(account.id, query);
}
