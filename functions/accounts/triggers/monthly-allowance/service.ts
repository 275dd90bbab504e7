import { PLANS, planCreditsExpireAt, planLot, type Plan } from '../../../../events/plans';
import type { AdminUserSummary } from '../../../../events/accounts';
import { ConflictError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import type { AccountStore } from '../../store';
import type { CreditLedger } from '../../credits';

export interface MonthlyAllowanceDeps {
  accounts: Pick<AccountStore, 'list'>;
  ledger: Pick<CreditLedger, 'grant'>;
  now: () => Date;
}

/**
 * The ledger key of a month's credits: granted once per client and month, however often the rule
 * fires. A paid plan's allowance and the Free plan's credits have keys of their own.
 */
const allowanceKey = (plan: Plan, month: string) => (plan.monthlyPriceCents > 0 ? `allowance:${month}` : `free:${month}`);

const PAGE = 500;
const PARALLEL_GRANTS = 10;

/**
 * Who gets a plan's credits for the month starting at `monthStart` (decision 043). A paid plan:
 * clients whose plan an admin set; a Stripe subscriber's allowance comes from its paid invoices.
 * The Free plan: clients who signed in since the start of the month before (a dormant or
 * scripted account gets nothing) and signed up before this month (the sign-up grant is the
 * Free credits of the month they signed up in).
 */
function eligible(plan: Plan, client: AdminUserSummary, monthStart: number): boolean {
  if (client.billing === 'stripe') return false;
  if (plan.monthlyPriceCents > 0) return true;
  const previousMonthStart = new Date(monthStart);
  previousMonthStart.setUTCMonth(previousMonthStart.getUTCMonth() - 1);
  const signedIn = client.lastSignInAt ? Date.parse(client.lastSignInAt) : Number.NaN;
  return Date.parse(client.createdAt) < monthStart && signedIn >= previousMonthStart.getTime();
}

/**
 * The scheduled rule's target (1st of the month, 00:05 UTC): grants each eligible client its
 * plan's monthly credits, one lot at the plan's credit value (the Free plan's promotional) that
 * expires at the end of the following month. The month is the event's time (a delayed or
 * repeated delivery grants the month it was meant for, once). A client whose allowance for the
 * month was granted already, under another plan, keeps that one.
 */
export async function grantMonthlyAllowance(deps: MonthlyAllowanceDeps, event: { time?: string } = {}): Promise<{ month: string; granted: number; alreadyGranted: number }> {
  const time = event.time && !Number.isNaN(Date.parse(event.time)) ? new Date(event.time) : deps.now();
  const month = time.toISOString().slice(0, 7);
  const monthStart = Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), 1);
  const expiresAt = planCreditsExpireAt(time);
  let granted = 0;
  let alreadyGranted = 0;
  for (const plan of PLANS) {
    for (let offset = 0; ; offset += PAGE) {
      const page = await deps.accounts.list({ role: 'client', plan: plan.id, order: 'ASC', offset, limit: PAGE });
      const clients = page.items.filter((client) => eligible(plan, client, monthStart));
      for (let i = 0; i < clients.length; i += PARALLEL_GRANTS) {
        const results = await Promise.all(
          clients.slice(i, i + PARALLEL_GRANTS).map(async (client) => {
            try {
              const change = { credits: plan.monthlyCredits, key: allowanceKey(plan, month), reason: `${plan.name} plan credits for ${month}`, lot: { ...planLot(plan.id), expiresAt } };
              return (await deps.ledger.grant(client.id, change)).replayed;
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
  log.info('monthly credits granted', { month, granted, alreadyGranted });
  return { month, granted, alreadyGranted };
}
