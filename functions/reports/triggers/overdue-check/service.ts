import { FAILURE_METRICS } from '../../../../events/metrics';
import { log } from '../../../shared/log';
import type { ReportStore } from '../../store';

/**
 * Scheduled: flags every waiting case past its due time overdue (once, with a history entry), logs
 * each waiting overdue case and counts them on every run (metric ReportsOverdue, events/metrics.ts),
 * so its alarm holds while any case is late. Answers how many are overdue.
 */
export async function checkOverdue(deps: { store: Pick<ReportStore, 'listCases' | 'markOverdue'>; now?: () => Date }): Promise<{ overdue: number; flagged: number }> {
  const at = (deps.now ?? (() => new Date()))().toISOString();
  let overdue = 0;
  let flagged = 0;
  for (const c of await deps.store.listCases()) {
    if ((c.status !== 'open' && c.status !== 'appealed') || c.dueAt > at) continue;
    overdue++;
    if (!c.overdue && (await deps.store.markOverdue(c.reference, at))) flagged++;
    log.info('report overdue', { reference: c.reference, category: c.category, dueAt: c.dueAt });
  }
  log.metric(FAILURE_METRICS.reportsOverdue, { value: overdue });
  return { overdue, flagged };
}
