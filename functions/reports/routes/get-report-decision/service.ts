import { REPORT_NOT_FOUND_MESSAGE, REVOCATION_REASONS } from '../../../../events/report-values';
import type { ClientReportDecision } from '../../../../events/reports';
import { currentAccount, type AccountStore } from '../../../accounts';
import type { GenerationStore } from '../../../generation';
import type { AccountCaller } from '../../../shared/auth';
import { NotFoundError } from '../../../shared/errors';
import type { ReportStore } from '../../store';
import { caseOf } from '../../views';

export interface ClientDecisionDeps {
  store: Pick<ReportStore, 'getCase'>;
  licenses: Pick<GenerationStore, 'getLicense'>;
  accounts: Pick<AccountStore, 'get' | 'create'>;
}

/** What the license page says of a dismissal: nothing was held against the license. */
const DISMISSED_REASON = 'the report was not upheld';

/**
 * `GET /reports/{reference}/decision` (the client of the license the case is about): the latest
 * decision with the reviewer's statement of reasons (DSA Article 17), the public reason, and
 * whether it can still be appealed (a decision against the license, not yet appealed). Anyone
 * else, a case without a decision, a malformed reference and a missing case all answer the same
 * 404 "Report not found": never whether the case exists or whose it is.
 */
export async function clientReportDecision(deps: ClientDecisionDeps, caller: AccountCaller, reference: string): Promise<ClientReportDecision> {
  const found = await caseOf(deps.store, reference);
  const account = await currentAccount(deps.accounts, caller);
  const license = found.match.verdict === 'ours' ? await deps.licenses.getLicense(found.match.licenseId) : undefined;
  const last = found.decisions.at(-1);
  if (!license || license.accountId !== account.id || !last) throw new NotFoundError(REPORT_NOT_FOUND_MESSAGE);
  return {
    reference: found.reference,
    licenseId: license.id,
    status: found.status,
    action: last.action,
    decidedAt: last.at,
    publicReason: last.action === 'dismiss' ? DISMISSED_REASON : REVOCATION_REASONS[found.category],
    reasons: last.reasons,
    canAppeal: found.status === 'decided' && last.action !== 'dismiss' && !found.appeal,
    ...(found.appeal ? { appealedAt: found.appeal.at } : {}),
  };
}
