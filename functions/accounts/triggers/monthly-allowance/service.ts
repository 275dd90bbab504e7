import { PLANS, planLot, type Plan } from '../../../../events/plans';
import { ConflictError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import type { AccountStore } from '../../store';
import type { CreditLedger } from '../../credits';

export interface MonthlyAllowanceDeps {
  accounts: Pick<AccountStore, 'list'>;
  ledger: Pick<CreditLedger, 'grant'>;
  now: () => Date;
}

/** The ledger key of a month's allowance: granted once per client and month, however often the rule fires. */
const allowanceKey = (month: string) => `allowance:${month}`;

/** Plans whose credits come every month; the Free plan's are granted once, at sign-up. */
const MONTHLY_PLANS: readonly Plan[] = PLANS.filter((p) => p.monthlyPriceCents > 0);

const PAGE = 500;
const PARALLEL_GRANTS = 10;

/**
 * The scheduled rule's target (1st of the month, 00:05 UTC): grants every client on a paid plan
 * its plan's monthly credits with the key `allowance:<YYYY-MM>`. The month is the event's time
 * (a delayed or repeated delivery grants the month it was meant for, once). A client whose
 * allowance for the month was granted already, under another plan, keeps that one. Each
 * allowance is one lot at its plan's credit value (a Free plan's would be promotional).
 */
export async function grantMonthlyAllowance(deps: MonthlyAllowanceDeps, event: { time?: string } = {}): Promise<{ month: string; granted: number; alreadyGranted: number }> {
  const time = event.time && !Number.isNaN(Date.parse(event.time)) ? new Date(event.time) : deps.now();
  const month = time.toISOString().slice(0, 7);
  let granted = 0;
  let alreadyGranted = 0;
  for (const plan of MONTHLY_PLANS) {
    for (let offset = 0; ; offset += PAGE) {
      const page = await deps.accounts.list({ role: 'client', plan: plan.id, order: 'ASC', offset, limit: PAGE });
      for (let i = 0; i < page.items.length; i += PARALLEL_GRANTS) {
        const results = await Promise.all(
          page.items.slice(i, i + PARALLEL_GRANTS).map(async (client) => {
            try {
              return (
                await deps.ledger.grant(client.id, { credits: plan.monthlyCredits, key: allowanceKey(month), reason: `${plan.name} plan credits for ${month}`, lot: planLot(plan.id) })
              ).replayed;
            } catch (err) {
              if (err instanceof ConflictError) return true;
              throw err;
            }
          }),
        );
        granted += results.filter((replayed) => !replayed).length;
        alreadyGranted += results.filter(Boolean).length;
      }
      if (offset + PAGE >= page.total) break;
    }
  }
  log.info('monthly allowance granted', { month, granted, alreadyGranted });
  return { month, granted, alreadyGranted };
}
