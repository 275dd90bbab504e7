import {
  REPORT_FILE_UNKNOWN_MESSAGE,
  reportDueAt,
  REPORTS_EMAIL_LIMIT_MESSAGE,
  REPORTS_NETWORK_LIMIT_MESSAGE,
  REPORTS_PER_EMAIL_PER_DAY,
  REPORTS_PER_NETWORK_PER_HOUR,
} from '../../../../events/report-values';
import { REPORT_RECEIVED, type ReportCreated, type ReportReceivedV1, type ReportRequest } from '../../../../events/reports';
import { ValidationError } from '../../../shared/errors';
import { ONE_DAY, ONE_HOUR, withIdempotencyKey, type PublicFormDeps } from '../../../shared/idempotency';
import { log } from '../../../shared/log';
import { strongest } from '../../strongest';
import { newReference } from '../../reference';
import type { ReportCase, ReportFile, ReportStore } from '../../store';

export interface SubmitDeps extends PublicFormDeps {
  store: Pick<ReportStore, 'getFile' | 'attachFile' | 'createCase'>;
  newReference?: () => string;
}

/**
 * `POST /reports` (anyone): opens a case from the form. Counted against the network's hourly and
 * the address's daily limits; its files must have been uploaded first (and belong to no other
 * case). The case's match is the strongest of its files'; an intimate report that matched one of
 * our images asks for that image to be withheld at once (`Report.Received`). The reporter's
 * acknowledgement and the talent's notice follow from the event. Texts are stored as sent, as
 * text: nothing renders them as HTML.
 */
export async function submitReport(deps: SubmitDeps, request: ReportRequest, caller: { ip: string }, idempotencyKey?: string): Promise<ReportCreated> {
  await deps.limit([
    { name: 'reports.ip', subject: caller.ip, limit: REPORTS_PER_NETWORK_PER_HOUR, windowSeconds: ONE_HOUR, message: REPORTS_NETWORK_LIMIT_MESSAGE },
    { name: 'reports.email', subject: request.email, limit: REPORTS_PER_EMAIL_PER_DAY, windowSeconds: ONE_DAY, message: REPORTS_EMAIL_LIMIT_MESSAGE },
  ]);
  return withIdempotencyKey(deps.once, 'reports', idempotencyKey, request, (r) => open(deps, r));
}

async function open(deps: SubmitDeps, request: ReportRequest): Promise<ReportCreated> {
  const now = (deps.now ?? (() => new Date()))();
  const files: ReportFile[] = [];
  for (const [i, fileId] of [...new Set(request.fileIds)].entries()) {
    const file = await deps.store.getFile(fileId);
    if (!file || file.reference) throw new ValidationError(REPORT_FILE_UNKNOWN_MESSAGE, { [`fileIds.${i}`]: REPORT_FILE_UNKNOWN_MESSAGE });
    files.push(file);
  }
  const match = strongest(files.map((f) => f.match));
  const hidden = request.category === 'intimate' && match.verdict === 'ours';
  const receivedAt = now.toISOString();
  const dueAt = reportDueAt(request.category, now).toISOString();
  const base: Omit<ReportCase, 'reference'> = {
    category: request.category,
    status: 'open',
    receivedAt,
    dueAt,
    overdue: false,
    explanation: request.explanation,
    urls: request.urls,
    files: files.map(({ fileId, key, size, match: m }) => ({ fileId, key, size, match: m })),
    reporter: { role: request.reporterRole, name: request.name, email: request.email, signature: request.signature },
    ...(request.consentDenied !== undefined ? { consentDenied: request.consentDenied } : {}),
    ...(request.depictedPerson ? { depictedPerson: request.depictedPerson } : {}),
    match,
    hidden,
    decisions: [],
    history: [
      { at: receivedAt, what: 'Received' },
      ...(hidden ? [{ at: receivedAt, what: 'Image withheld while the case waits' }] : []),
    ],
  };
  const reference = await createCase(deps, base);
  for (const file of files) {
    if (!(await deps.store.attachFile(file.fileId, reference))) log.warn('a report file was attached to another case meanwhile', { reference, fileId: file.fileId });
  }
  const detail: ReportReceivedV1 = {
    version: 1,
    reference,
    category: request.category,
    receivedAt,
    dueAt,
    ...(match.verdict === 'ours' ? { licenseId: match.licenseId } : {}),
    ...(hidden && match.verdict === 'ours' ? { withheldLicenseId: match.licenseId } : {}),
  };
  await deps.publish(REPORT_RECEIVED, detail);
  log.info('report received', { reference, category: request.category, matched: match.verdict === 'ours', hidden });
  return { reference, dueAt, match };
}

/** Writes the case under a fresh reference, drawing again when one is taken. */
async function createCase(deps: SubmitDeps, base: Omit<ReportCase, 'reference'>): Promise<string> {
  for (let attempt = 0; attempt < 6; attempt++) {
    const reference = (deps.newReference ?? newReference)();
    if (await deps.store.createCase({ reference, ...base })) return reference;
  }
  throw new Error('no free report reference after several draws');
}
