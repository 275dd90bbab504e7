import type { ReportAction } from '../../../../events/report-values';
import type { ReportDecidedV1, ReportReceivedV1 } from '../../../../events/reports';
import type { AccountStore } from '../../../accounts';
import type { GenerationStore } from '../../../generation';
import type { Email } from '../../../shared/email';
import { ONE_DAY, sendOnce, type Once } from '../../../shared/idempotency';
import { log } from '../../../shared/log';
import { clientStatementEmail, reportDecidedEmail, reportReceivedEmail, talentOutcomeEmail, talentReportEmail } from '../../emails';
import type { ReportStore } from '../../store';

export interface NotifyDeps {
  store: Pick<ReportStore, 'getCase' | 'addHistory'>;
  licenses: Pick<GenerationStore, 'getLicense'>;
  accounts: Pick<AccountStore, 'get'>;
  /** The talent's email (from the application they were accepted from); undefined when we have none. */
  talentEmail: (talentId: string) => Promise<string | undefined>;
  send: (to: string, email: Email) => Promise<unknown>;
  once: Once;
  siteUrl: string;
  now?: () => Date;
}

const WEEK = 7 * ONE_DAY;

/** Sends one email of a case once, and notes it in the case's history. */
async function tell(deps: NotifyDeps, reference: string, key: string, to: string | undefined, who: string, email: () => Email): Promise<void> {
  if (!to) {
    log.warn('no address to email about a report', { reference, who });
    return;
  }
  const sent = await sendOnce(deps, { name: 'report-emails', key: `${reference}:${key}`, expiresAfterSeconds: WEEK }, to, email);
  if (sent) await deps.store.addHistory(reference, { at: (deps.now ?? (() => new Date()))().toISOString(), what: `Emailed the ${who}` });
}

/** Consumer of `Report.Received`: the reporter's acknowledgement, and the talent's notice when the image is ours. */
export async function notifyReceived(deps: NotifyDeps, detail: ReportReceivedV1): Promise<void> {
  const found = await deps.store.getCase(detail.reference);
  if (!found) return log.warn('report not found; nothing sent', { reference: detail.reference });
  await tell(deps, found.reference, 'received', found.reporter.email, 'reporter', () => reportReceivedEmail(found));
  if (found.match.verdict !== 'ours') return;
  const licenseId = found.match.licenseId;
  const license = await deps.licenses.getLicense(licenseId);
  if (!license) return;
  await tell(deps, found.reference, 'talent-received', await deps.talentEmail(license.talentId), 'talent', () =>
    talentReportEmail({ reference: found.reference, category: found.category, licenseId, siteUrl: deps.siteUrl }),
  );
}

/**
 * Consumer of `Report.Decided`: the reporter and the talent are told the outcome; the client of
 * the license gets the statement of reasons with how to appeal for a decision against it, and the
 * final decision after its appeal whatever it is.
 */
export async function notifyDecided(deps: NotifyDeps, detail: ReportDecidedV1): Promise<void> {
  const found = await deps.store.getCase(detail.reference);
  if (!found) return log.warn('report not found; nothing sent', { reference: detail.reference });
  const decision = found.decisions.at(detail.afterAppeal ? -1 : 0) ?? found.decisions.at(-1);
  if (!decision) return;
  const action: ReportAction = detail.action;
  const round = detail.afterAppeal ? 'appeal' : 'first';
  await tell(deps, found.reference, `decided-${round}`, found.reporter.email, 'reporter', () => reportDecidedEmail({ reference: found.reference, action }));
  if (!detail.licenseId) return;
  const license = await deps.licenses.getLicense(detail.licenseId);
  if (!license) return;
  await tell(deps, found.reference, `talent-decided-${round}`, await deps.talentEmail(license.talentId), 'talent', () => talentOutcomeEmail({ reference: found.reference, action }));
  if (action === 'dismiss' && !detail.afterAppeal) return;
  const client = await deps.accounts.get(license.accountId);
  await tell(deps, found.reference, `client-decided-${round}`, client?.email, 'client', () =>
    clientStatementEmail({ reference: found.reference, action, licenseId: license.id, reasons: decision.reasons, siteUrl: deps.siteUrl, afterAppeal: detail.afterAppeal }),
  );
}
