import { runMonth, type PayoutDeps } from '../../run';

/**
 * The payout run after a close: every statement of the month paid, carried or waiting for its
 * account. A statement that could not be paid for an unexpected reason (Stripe unreachable) makes
 * the run throw once the others are done, so EventBridge delivers the event again; the rerun pays
 * nothing twice.
 */
export async function runPayouts(deps: PayoutDeps, month: string): Promise<{ month: string; payouts: number; paid: number }> {
  const run = await runMonth(deps, month);
  if (run.errors > 0) throw new Error(`The payout run of ${month} left ${run.errors} statement(s) unpaid: it is run again`);
  return { month, payouts: run.payouts.length, paid: run.payouts.filter((p) => p.state === 'paid').length };
}
