// The accounts wing's part of a report's decision (docs/product.md#reports-and-takedown, decision
// 058): a reviewer's "suspend the client" disables the account of the matched license's client,
// the one way the console's disable does it.
import { suspensionReason } from '../../../../events/report-values';
import type { ReportDecidedV1 } from '../../../../events/reports';
import { NotFoundError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import { setAccountState } from '../../account-state';
import type { Actor } from '../../store';

type Deps = Parameters<typeof setAccountState>[0];

/** Who a suspension is recorded by when the decision does not name its reviewer. */
const REPORTS_ACTOR: Actor = { sub: 'reports', email: 'Misuse reports' };

/**
 * Consumer of `Report.Decided`: for `suspend-client`, the client's sign-in is turned off, every
 * session ended and the account flagged, with the report's reference as the reason and the
 * reviewer in the audit. A repeated delivery finds the account disabled and records nothing new;
 * an account that no longer exists (erased) has nobody to suspend.
 */
export async function suspendReportedClient(deps: Deps, decided: ReportDecidedV1): Promise<'suspended' | 'skipped'> {
  if (decided.action !== 'suspend-client' || !decided.clientAccountId) return 'skipped';
  try {
    await setAccountState(deps, decided.clientAccountId, true, suspensionReason(decided.reference), decided.decidedBy ?? REPORTS_ACTOR);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    log.warn('the reported client has no account to suspend', { accountId: decided.clientAccountId, reference: decided.reference });
    return 'skipped';
  }
  log.info('client suspended by a report decision', { accountId: decided.clientAccountId, reference: decided.reference });
  return 'suspended';
}
