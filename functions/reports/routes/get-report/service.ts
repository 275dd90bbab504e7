import type { AdminReport } from '../../../../events/reports';
import type { ReportStore } from '../../store';
import { adminReportView, caseOf, type CaseViewDeps } from '../../views';

/** `GET /admin/reports/{reference}`: the case with its match, files (short-lived URLs) and history. */
export async function getReport(deps: CaseViewDeps & { store: Pick<ReportStore, 'getCase'> }, reference: string): Promise<AdminReport> {
  return adminReportView(deps, await caseOf(deps.store, reference));
}
