import { log } from '../../../shared/log';
import type { ReportStore } from '../../store';

/** The log line the stack's metric filter counts (metric ReportsOverdue, with its alarm). */
const OVERDUE_LOG_MESSAGE = 'report overdue';

/**
 * Scheduled: flags every waiting case past its due time overdue (once, with a history entry) and
 * logs each waiting overdue case on every run, so the ReportsOverdue alarm holds while any case
 * is late. Answers how many are overdue.
 */
export async function checkOverdue(deps: { store: Pick<ReportStore, 'listCases' | 'markOverdue'>; now?: () => Date }): Promise<{ overdue: number; flagged: number }> {
  const at = (deps.now ?? (() => new Date()))().toISOString();
  let overdue = 0;
  let flagged = 0;
  for (const c of await deps.store.listCases()) {
    if ((c.status !== 'open' && c.status !== 'appealed') || c.dueAt > at) continue;
    overdue++;
    if (!c.overdue && (await deps.store.markOverdue(c.reference, at))) flagged++;
    log.info(OVERDUE_LOG_MESSAGE, { reference: c.reference, category: c.category, dueAt: c.dueAt });
  }
  return { overdue, flagged };
}
