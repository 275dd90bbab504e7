import { NotFoundError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import type { AccountStore } from '../../store';
import type { CreditLedger } from '../../credits';

export interface ExpireCreditsDeps {
  accounts: Pick<AccountStore, 'list'>;
  ledger: Pick<CreditLedger, 'expire'>;
}

const PAGE = 500;
const PARALLEL = 10;

/**
 * The daily sweep (decision 043): every client account's plan credits whose time ran out leave
 * its balance with an `expire` entry. Balances never count expired credits anyway and every
 * ledger change drops them first; the sweep writes the entry for accounts that change nothing,
 * so the history shows the expiry on its day. Running it twice expires nothing twice.
 */
export async function expireCredits(deps: ExpireCreditsDeps): Promise<{ accounts: number; expiredAccounts: number; expiredCredits: number }> {
  let accounts = 0;
  let expiredAccounts = 0;
  let expiredCredits = 0;
  for (let offset = 0; ; offset += PAGE) {
    const page = await deps.accounts.list({ role: 'client', order: 'ASC', offset, limit: PAGE });
    for (let i = 0; i < page.items.length; i += PARALLEL) {
      const results = await Promise.all(
        page.items.slice(i, i + PARALLEL).map(async (client) => {
          try {
            return await deps.ledger.expire(client.id);
          } catch (err) {
            // A client without a balance holds no credits to expire.
            if (err instanceof NotFoundError) return undefined;
            throw err;
          }
        }),
      );
      accounts += results.length;
      for (const result of results) {
        const credits = result?.expired.reduce((n, l) => n + l.credits, 0) ?? 0;
        if (credits > 0) {
          expiredAccounts += 1;
          expiredCredits += credits;
        }
      }
    }
    if (offset + PAGE >= page.total) break;
  }
  log.info('expired credits swept', { accounts, expiredAccounts, expiredCredits });
  return { accounts, expiredAccounts, expiredCredits };
}
