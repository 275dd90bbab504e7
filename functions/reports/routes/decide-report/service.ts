import {
  ALREADY_DECIDED_MESSAGE,
  NO_LICENSE_MESSAGE,
  REVOCATION_REASONS,
  SAME_REVIEWER_MESSAGE,
  SAMPLE_NOT_FOUND_MESSAGE,
  type ReportCategory,
} from '../../../../events/report-values';
import {
  LICENSE_REINSTATED,
  LICENSE_REVOKED,
  REPORT_DECIDED,
  type AdminReport,
  type LicenseReinstatedV1,
  type LicenseRevokedV1,
  type ReportDecidedV1,
  type ReportDecisionRequest,
} from '../../../../events/reports';
import type { TalentStore } from '../../../catalog';
import type { AdminActor } from '../../../shared/auth';
import { ConflictError, ValidationError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import { decisionEntry, type ReportCase, type ReportStore } from '../../store';
import { adminReportView, caseOf, type CaseViewDeps } from '../../views';

export interface DecideDeps extends CaseViewDeps {
  store: Pick<ReportStore, 'getCase' | 'recordDecision'>;
  /** The catalog: a sample to remove must be one of the matched talent's current samples. */
  talents: Pick<TalentStore, 'get'>;
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
 * (`Report.Decided`; `License.Revoked` for a revocation, `License.Reinstated` for an appeal upheld
 * against one): the generation wing marks the license, the accounts wing suspends the client, the
 * catalog removes the sample, the emails follow. `Report.Decided` names what each of them needs:
 * the client's account, the talent and the sample.
 */
export async function decideReport(deps: DecideDeps, reference: string, request: ReportDecisionRequest, reviewer: AdminActor): Promise<AdminReport> {
  const found = await caseOf(deps.store, reference);
  if (found.status !== 'open' && found.status !== 'appealed') throw new ConflictError(ALREADY_DECIDED_MESSAGE);
  const afterAppeal = found.status === 'appealed';
  if (afterAppeal && found.decisions.some((d) => d.by === reviewer.email)) throw new ConflictError(SAME_REVIEWER_MESSAGE);
  if (request.action !== 'dismiss' && found.match.verdict !== 'ours') throw new ConflictError(NO_LICENSE_MESSAGE);
  const licenseId = found.match.verdict === 'ours' ? found.match.licenseId : undefined;
  // Suspending its client and removing its talent's sample act on whom the license names.
  const actsOnParties = request.action === 'suspend-client' || request.action === 'remove-sample';
  const license = licenseId && actsOnParties ? await deps.licenses.getLicense(licenseId) : undefined;
  if (actsOnParties && !license) throw new ConflictError(NO_LICENSE_MESSAGE);
  const sampleUrl = request.action === 'remove-sample' ? await currentSample(deps, license!.talentId, request.sampleUrl) : undefined;
  const at = (deps.now ?? (() => new Date()))().toISOString();
  const decision = { action: request.action, reasons: request.reasons, by: reviewer.email, at, ...(sampleUrl ? { sampleUrl } : {}) };
  const recorded = await deps.store.recordDecision(
    reference,
    decision,
    { from: found.status, to: afterAppeal ? 'closed' : 'decided', hidden: false },
    decisionEntry(request.action, reviewer.email, at, afterAppeal),
  );
  if (!recorded) throw new ConflictError(ALREADY_DECIDED_MESSAGE);
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
  if (licenseId && reinstates(found, request.action)) {
    const reinstated: LicenseReinstatedV1 = { version: 1, licenseId, reference, reinstatedAt: at };
    await deps.publish(LICENSE_REINSTATED, reinstated);
  }
  const decided: ReportDecidedV1 = {
    version: 1,
    reference,
    action: request.action,
    decidedAt: at,
    afterAppeal,
    decidedBy: { sub: reviewer.sub, email: reviewer.email },
    ...(licenseId ? { licenseId } : {}),
    ...(request.action === 'suspend-client' && license ? { clientAccountId: license.accountId } : {}),
    ...(sampleUrl && license ? { talentId: license.talentId, sampleUrl } : {}),
  };
  await deps.publish(REPORT_DECIDED, decided);
  log.info('report decided', { reference, action: request.action, afterAppeal });
  return adminReportView(deps, await caseOf(deps.store, reference));
}

/** An appeal upheld against a revocation: the case's first decision revoked, the second dismisses. */
const reinstates = (found: ReportCase, action: ReportDecisionRequest['action']): boolean =>
  found.status === 'appealed' && action === 'dismiss' && found.decisions[0]?.action === 'revoke-license';

/** The sample to remove, if it is one of the talent's current samples; 400 naming the field otherwise. */
async function currentSample(deps: Pick<DecideDeps, 'talents'>, talentId: string, sampleUrl: string | undefined): Promise<string> {
  const talent = await deps.talents.get(talentId);
  if (!sampleUrl || !talent?.samples.includes(sampleUrl)) throw new ValidationError(SAMPLE_NOT_FOUND_MESSAGE, { sampleUrl: SAMPLE_NOT_FOUND_MESSAGE });
  return sampleUrl;
}
