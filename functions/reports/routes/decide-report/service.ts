import {
  ALREADY_DECIDED_MESSAGE,
  NO_LICENSE_MESSAGE,
  REVOCATION_REASONS,
  SAME_REVIEWER_MESSAGE,
  type ReportCategory,
} from '../../../../events/report-values';
import {
  LICENSE_REVOKED,
  REPORT_DECIDED,
  type AdminReport,
  type LicenseRevokedV1,
  type ReportDecidedV1,
  type ReportDecisionRequest,
} from '../../../../events/reports';
import type { AdminActor } from '../../../shared/auth';
import { ConflictError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import { decisionEntry, type ReportStore } from '../../store';
import { adminReportView, caseOf, type CaseViewDeps } from '../../views';

export interface DecideDeps extends CaseViewDeps {
  store: Pick<ReportStore, 'getCase' | 'recordDecision'>;
  publish: (detailType: string, detail: object) => Promise<void>;
  now?: () => Date;
}

/**
 * Categories whose upheld report means the client broke its license (outside it, an excluded
 * industry, intimate or defamatory use): a revocation for them takes the talent's royalty back
 * (decision 058). The others (a likeness or copyright claim against the image itself) do not.
 */
const CLIENT_BREACH_CATEGORIES: readonly ReportCategory[] = ['outside-license', 'excluded-industry', 'intimate', 'defamatory'];

/**
 * `POST /admin/reports/{reference}/decision`: a reviewer decides with a written statement of
 * reasons. A waiting case is decided once; an appealed one once more, by a different reviewer
 * than the first decision's (409 otherwise). Acting on a license (revoke it, suspend its client,
 * remove its talent's sample) needs a case that matched one of ours. The decision is announced
 * (`Report.Decided`; `License.Revoked` for a revocation): the generation wing marks the license,
 * the emails follow.
 */
export async function decideReport(deps: DecideDeps, reference: string, request: ReportDecisionRequest, reviewer: AdminActor): Promise<AdminReport> {
  const found = await caseOf(deps.store, reference);
  if (found.status !== 'open' && found.status !== 'appealed') throw new ConflictError(ALREADY_DECIDED_MESSAGE);
  const afterAppeal = found.status === 'appealed';
  if (afterAppeal && found.decisions.some((d) => d.by === reviewer.email)) throw new ConflictError(SAME_REVIEWER_MESSAGE);
  if (request.action !== 'dismiss' && found.match.verdict !== 'ours') throw new ConflictError(NO_LICENSE_MESSAGE);
  const at = (deps.now ?? (() => new Date()))().toISOString();
  const decision = { action: request.action, reasons: request.reasons, by: reviewer.email, at };
  const recorded = await deps.store.recordDecision(
    reference,
    decision,
    { from: found.status, to: afterAppeal ? 'closed' : 'decided', hidden: false },
    decisionEntry(request.action, reviewer.email, at, afterAppeal),
  );
  if (!recorded) throw new ConflictError(ALREADY_DECIDED_MESSAGE);
  const licenseId = found.match.verdict === 'ours' ? found.match.licenseId : undefined;
  if (request.action === 'revoke-license' && licenseId) {
    const revoked: LicenseRevokedV1 = {
      version: 1,
      licenseId,
      reference,
      revokedAt: at,
      reason: REVOCATION_REASONS[found.category],
      clientBreach: CLIENT_BREACH_CATEGORIES.includes(found.category),
    };
    await deps.publish(LICENSE_REVOKED, revoked);
  }
  const decided: ReportDecidedV1 = { version: 1, reference, action: request.action, decidedAt: at, afterAppeal, ...(licenseId ? { licenseId } : {}) };
  await deps.publish(REPORT_DECIDED, decided);
  log.info('report decided', { reference, action: request.action, afterAppeal });
  return adminReportView(deps, await caseOf(deps.store, reference));
}
