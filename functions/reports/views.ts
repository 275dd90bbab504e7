// What the console's report routes answer (events/reports.ts), built from the stored case, the
// matched license, and short-lived URLs of the reported files.
import { REPORT_NOT_FOUND_MESSAGE, REPORT_REFERENCE_PATTERN } from '../../events/report-values';
import type { AdminReport, AdminReportSummary, ReportStats } from '../../events/reports';
import type { GenerationStore } from '../generation';
import { NotFoundError } from '../shared/errors';
import type { Bucket } from '../shared/s3';
import type { ReportCase, ReportStore } from './store';

/** How long a reported file's URL in the console works. */
const FILE_URL_SECONDS = 5 * 60;

export const summaryOf = (c: ReportCase): AdminReportSummary => ({
  id: c.reference,
  reference: c.reference,
  category: c.category,
  status: c.status,
  receivedAt: c.receivedAt,
  dueAt: c.dueAt,
  overdue: c.overdue,
  hidden: c.hidden,
  match: c.match,
});

/** The case named by the path; 404 for a malformed reference or one that names no case. */
export async function caseOf(store: Pick<ReportStore, 'getCase'>, reference: string): Promise<ReportCase> {
  const found = REPORT_REFERENCE_PATTERN.test(reference) ? await store.getCase(reference) : undefined;
  if (!found) throw new NotFoundError(REPORT_NOT_FOUND_MESSAGE);
  return found;
}

export interface CaseViewDeps {
  licenses: Pick<GenerationStore, 'getLicense'>;
  files: Pick<Bucket, 'getUrl'>;
  now?: () => Date;
}

/** The whole case for a reviewer. */
export async function adminReportView(deps: CaseViewDeps, c: ReportCase): Promise<AdminReport> {
  const license = c.match.verdict === 'ours' ? await deps.licenses.getLicense(c.match.licenseId) : undefined;
  const expiresAt = new Date((deps.now ?? (() => new Date()))().getTime() + FILE_URL_SECONDS * 1000).toISOString();
  const files = await Promise.all(
    c.files.map(async (f) => ({ fileId: f.fileId, url: await deps.files.getUrl(f.key, { expiresIn: FILE_URL_SECONDS }), expiresAt, size: f.size, match: f.match })),
  );
  return {
    ...summaryOf(c),
    explanation: c.explanation,
    urls: c.urls,
    files,
    reporter: c.reporter,
    ...(c.consentDenied !== undefined ? { consentDenied: c.consentDenied } : {}),
    ...(c.depictedPerson ? { depictedPerson: c.depictedPerson } : {}),
    ...(license
      ? {
          license: {
            licenseId: license.id,
            talentId: license.talentId,
            talentName: license.talentName,
            clientName: license.licensee,
            clientAccountId: license.accountId,
            issuedAt: license.issuedAt,
            ...(license.revokedAt ? { revokedAt: license.revokedAt } : {}),
          },
        }
      : {}),
    decisions: c.decisions,
    ...(c.appeal ? { appeal: { statement: c.appeal.statement, at: c.appeal.at } } : {}),
    history: c.history,
  };
}

/** Whether a case waits for a reviewer's decision. */
const waiting = (c: ReportCase) => c.status === 'open' || c.status === 'appealed';

/** The queue's order: overdue first, then intimate, then the earliest due. */
export function queueOrder(a: ReportCase, b: ReportCase): number {
  return (
    Number(waiting(b)) - Number(waiting(a)) ||
    Number(b.overdue) - Number(a.overdue) ||
    Number(b.category === 'intimate') - Number(a.category === 'intimate') ||
    a.dueAt.localeCompare(b.dueAt)
  );
}

/**
 * The dashboard's figures (`GET /admin/stats`): the cases waiting for a decision, those past their
 * due time (flagged by the overdue check, or due before `now` and not yet flagged), and the
 * intimate-image ones among them.
 */
export function reportStats(cases: ReportCase[], now: Date): ReportStats {
  const at = now.toISOString();
  const open = cases.filter(waiting);
  return {
    waiting: open.length,
    overdue: open.filter((c) => c.overdue || c.dueAt <= at).length,
    intimateWaiting: open.filter((c) => c.category === 'intimate').length,
  };
}
