import type * as z from 'zod';
import type { AdminReportList, AdminReportListQuery } from '../../../../events/reports';
import type { ReportStore } from '../../store';
import { queueOrder, summaryOf } from '../../views';

/** `GET /admin/reports`: the queue, waiting cases first (overdue, then intimate, then by due time), one page. */
export async function listReports(store: Pick<ReportStore, 'listCases'>, query: z.output<typeof AdminReportListQuery>): Promise<AdminReportList> {
  const all = (await store.listCases()).filter((c) => query.status === undefined || c.status === query.status).sort(queueOrder);
  return { items: all.slice(query.offset, query.offset + query.limit).map(summaryOf), total: all.length };
}
