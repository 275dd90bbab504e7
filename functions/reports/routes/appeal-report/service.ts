import { APPEAL_NOT_ALLOWED_MESSAGE, APPEAL_NOT_OPEN_MESSAGE, reportDueAt } from '../../../../events/report-values';
import { REPORT_APPEALED, type AppealAccepted, type AppealRequest, type ReportAppealedV1 } from '../../../../events/reports';
import { currentAccount, type AccountStore } from '../../../accounts';
import type { GenerationStore } from '../../../generation';
import type { AccountCaller } from '../../../shared/auth';
import { ConflictError, NotFoundError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import type { ReportStore } from '../../store';
import { caseOf } from '../../views';

export interface AppealDeps {
  store: Pick<ReportStore, 'getCase' | 'recordAppeal'>;
  licenses: Pick<GenerationStore, 'getLicense'>;
  accounts: Pick<AccountStore, 'get' | 'create'>;
  publish: (detailType: string, detail: object) => Promise<void>;
  now?: () => Date;
}

/**
 * `POST /reports/{reference}/appeal` (the client of the license a decision acted on): reopens
 * the case for a different reviewer, due again as a new report of its category. Only a decision
 * against the license (not a dismissal) can be appealed, once.
 */
export async function appealReport(deps: AppealDeps, caller: AccountCaller, reference: string, request: AppealRequest): Promise<AppealAccepted> {
  const found = await caseOf(deps.store, reference);
  const account = await currentAccount(deps.accounts, caller);
  const license = found.match.verdict === 'ours' ? await deps.licenses.getLicense(found.match.licenseId) : undefined;
  // Another client's case answers as a case not theirs to see (404), never whose it is.
  if (!license || license.accountId !== account.id) throw new NotFoundError(APPEAL_NOT_ALLOWED_MESSAGE);
  const last = found.decisions.at(-1);
  if (found.status !== 'decided' || !last || last.action === 'dismiss' || found.appeal) throw new ConflictError(APPEAL_NOT_OPEN_MESSAGE);
  const now = (deps.now ?? (() => new Date()))();
  const at = now.toISOString();
  const appealed = await deps.store.recordAppeal(
    reference,
    { statement: request.statement, at, accountId: account.id },
    reportDueAt(found.category, now).toISOString(),
    { at, what: 'Appealed by the client', detail: request.statement },
  );
  if (!appealed) throw new ConflictError(APPEAL_NOT_OPEN_MESSAGE);
  const detail: ReportAppealedV1 = { version: 1, reference, appealedAt: at };
  await deps.publish(REPORT_APPEALED, detail);
  log.info('report appealed', { reference });
  return { reference, status: 'appealed' };
}
