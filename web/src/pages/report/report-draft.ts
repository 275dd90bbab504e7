// The report form's draft and its fields (docs/product.md#reports-and-takedown). The checks and the
// request the draft makes are in ./report-checks.ts, which loads with the first send.
import type { ReportFileUploaded } from '../../../../events/reports';
import type { ReportCategory, ReporterRole } from '../../../../events/report-values';

/** A chosen file: sending, sent (with its id and match) or refused (with why). */
export type ChosenFile =
  | { key: number; name: string; preview: string; state: 'sending' }
  | { key: number; name: string; preview: string; state: 'sent'; uploaded: ReportFileUploaded }
  | { key: number; name: string; preview: string; state: 'failed'; error: string };

export interface ReportDraft {
  category: ReportCategory | '';
  urls: string[];
  files: readonly ChosenFile[];
  explanation: string;
  reporterRole: ReporterRole | '';
  name: string;
  email: string;
  depictedPerson: string;
  consentDenied: boolean;
  goodFaith: boolean;
  signature: string;
}

export const EMPTY_DRAFT: ReportDraft = {
  category: '',
  urls: [''],
  files: [],
  explanation: '',
  reporterRole: '',
  name: '',
  email: '',
  depictedPerson: '',
  consentDenied: false,
  goodFaith: false,
  signature: '',
};

/** The form's fields in page order (the first with an error takes focus); `url-<n>` is the nth URL. */
export type ReportField =
  | 'category'
  | `url-${number}`
  | 'files'
  | 'explanation'
  | 'reporterRole'
  | 'name'
  | 'email'
  | 'depictedPerson'
  | 'consentDenied'
  | 'goodFaith'
  | 'signature';

export type ReportErrors = Partial<Record<ReportField, string>>;

/** The fields in page order, for a draft with `urlCount` URL rows. */
export function fieldOrder(urlCount: number): ReportField[] {
  const urls = Array.from({ length: urlCount }, (_, i) => `url-${i}` as const);
  return ['category', ...urls, 'files', 'explanation', 'reporterRole', 'name', 'email', 'depictedPerson', 'consentDenied', 'goodFaith', 'signature'];
}

/** Whether the draft asks what the TAKE IT DOWN Act asks of an intimate-image report. */
export const isIntimate = (draft: Pick<ReportDraft, 'category'>) => draft.category === 'intimate';
/** Whether the form asks who is shown (an intimate image reported by someone other than the person shown). */
export const asksDepictedPerson = (draft: Pick<ReportDraft, 'category' | 'reporterRole'>) =>
  isIntimate(draft) && draft.reporterRole !== '' && draft.reporterRole !== 'talent';
