// The report form's checks in the browser, the request a draft makes, and the server's field
// messages in the form's words (docs/product.md#reports-and-takedown). The rules are the API's
// (events/reports.ts); the browser checks what it can without the validation library, and the
// server's 400 names the rest (a private address, an expired file) field by field. Loaded with the
// first send, so the page starts without it.
import type { ReportRequestInput } from '../../../../events/reports';
import { REPORT_LIMITS, REPORT_LOCATION_MESSAGE, URL_NOT_PUBLIC_MESSAGE, type ReportCategory, type ReporterRole } from '../../../../events/report-values';
import { EMAIL_PATTERN } from '../../lib/email';
import { asksDepictedPerson, isIntimate, type ReportDraft, type ReportErrors, type ReportField } from './report-draft';

const MESSAGES = {
  category: 'Choose what is wrong with the image.',
  location: REPORT_LOCATION_MESSAGE,
  url: 'Enter a full address starting with https://, such as https://example.com/image.jpg.',
  urlNotPublic: `This address ${URL_NOT_PUBLIC_MESSAGE}.`,
  filesPending: 'Wait until every file is sent, or remove the ones that failed.',
  explanation: 'Tell us what is wrong and why.',
  reporterRole: 'Tell us who is reporting.',
  name: 'Enter your name.',
  email: 'Enter your email address, so we can send you the reference and our decision.',
  emailInvalid: 'Enter a valid email address, such as name@example.com.',
  depictedPerson: 'Name the person shown, so we can identify them.',
  consentDenied: 'Confirm that the person shown did not consent: the law asks for this statement.',
  goodFaith: 'Confirm the good-faith statement to send the report.',
  signature: 'Type your full name as your signature.',
  tooLong: (what: string, max: number) => `${what} must be ${max.toLocaleString('en-US')} characters or fewer.`,
} as const;

const LABELS: Partial<Record<ReportField, string>> = {
  explanation: 'The explanation',
  name: 'Your name',
  email: 'The email address',
  depictedPerson: 'The name of the person shown',
  signature: 'The signature',
};

function lengthError(field: keyof typeof REPORT_LIMITS & ReportField, value: string): string | undefined {
  const max = REPORT_LIMITS[field];
  return value.length > max ? MESSAGES.tooLong(LABELS[field] ?? field, max) : undefined;
}

/** A URL the browser can already tell is wrong: not http(s) or not a URL at all. */
function urlError(value: string): string | undefined {
  if (value.length > REPORT_LIMITS.url) return MESSAGES.tooLong('An address', REPORT_LIMITS.url);
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return MESSAGES.urlNotPublic;
    return undefined;
  } catch {
    return MESSAGES.url;
  }
}

/** The filled URL rows, trimmed. */
export const filledUrls = (draft: ReportDraft) => draft.urls.map((u) => u.trim()).filter(Boolean);
/** The ids of the files that were sent. */
export const sentFileIds = (draft: ReportDraft) => draft.files.flatMap((f) => (f.state === 'sent' ? [f.uploaded.fileId] : []));

/** The browser's checks; an empty object when the draft can be sent. */
export function validateReport(draft: ReportDraft): ReportErrors {
  const errors: ReportErrors = {};
  if (!draft.category) errors.category = MESSAGES.category;
  draft.urls.forEach((raw, i) => {
    const value = raw.trim();
    const problem = value ? urlError(value) : undefined;
    if (problem) errors[`url-${i}`] = problem;
  });
  if (draft.files.some((f) => f.state !== 'sent')) errors.files = MESSAGES.filesPending;
  else if (filledUrls(draft).length === 0 && sentFileIds(draft).length === 0) errors['url-0'] = MESSAGES.location;
  const explanation = draft.explanation.trim();
  if (!explanation) errors.explanation = MESSAGES.explanation;
  else errors.explanation = lengthError('explanation', explanation);
  if (!draft.reporterRole) errors.reporterRole = MESSAGES.reporterRole;
  const name = draft.name.trim();
  errors.name = name ? lengthError('name', name) : MESSAGES.name;
  const email = draft.email.trim();
  if (!email) errors.email = MESSAGES.email;
  else if (email.length > REPORT_LIMITS.email) errors.email = lengthError('email', email);
  else if (!EMAIL_PATTERN.test(email)) errors.email = MESSAGES.emailInvalid;
  if (asksDepictedPerson(draft)) {
    const who = draft.depictedPerson.trim();
    errors.depictedPerson = who ? lengthError('depictedPerson', who) : MESSAGES.depictedPerson;
  }
  if (isIntimate(draft) && !draft.consentDenied) errors.consentDenied = MESSAGES.consentDenied;
  if (!draft.goodFaith) errors.goodFaith = MESSAGES.goodFaith;
  const signature = draft.signature.trim();
  errors.signature = signature ? lengthError('signature', signature) : MESSAGES.signature;
  for (const key of Object.keys(errors) as ReportField[]) if (!errors[key]) delete errors[key];
  return errors;
}

/** The request the draft makes (call after validateReport found nothing). */
export function reportRequest(draft: ReportDraft): ReportRequestInput {
  return {
    category: draft.category as ReportCategory,
    explanation: draft.explanation.trim(),
    urls: filledUrls(draft),
    fileIds: sentFileIds(draft),
    reporterRole: draft.reporterRole as ReporterRole,
    name: draft.name.trim(),
    email: draft.email.trim(),
    goodFaith: true,
    signature: draft.signature.trim(),
    ...(isIntimate(draft) ? { consentDenied: draft.consentDenied } : {}),
    ...(asksDepictedPerson(draft) ? { depictedPerson: draft.depictedPerson.trim() } : {}),
  };
}

/**
 * The server's 400 fields in the form's words: `urls.<n>` is the nth filled URL's row, a file id
 * the files' field; a message the form has no words for is shown as the server wrote it.
 */
export function serverErrors(fields: Record<string, string>, draft: ReportDraft): ReportErrors {
  // The nth URL sent is the nth filled row.
  const rows = draft.urls.flatMap((u, i) => (u.trim() ? [i] : []));
  const errors: ReportErrors = {};
  for (const [key, message] of Object.entries(fields)) {
    const [head, index] = key.split('.');
    if (head === 'urls') {
      const row = index === undefined ? 0 : (rows[Number(index)] ?? 0);
      errors[`url-${row}`] ??= message.includes(URL_NOT_PUBLIC_MESSAGE) ? MESSAGES.urlNotPublic : sentence(message);
    } else if (head === 'fileIds') errors.files ??= sentence(message);
    else if (head === 'email') errors.email ??= /valid/.test(message) ? MESSAGES.emailInvalid : MESSAGES.email;
    else if (head === 'goodFaith') errors.goodFaith ??= MESSAGES.goodFaith;
    else if (head === 'consentDenied') errors.consentDenied ??= MESSAGES.consentDenied;
    else if (isFormField(head)) errors[head] ??= /is required/.test(message) ? requiredMessage(head) : sentence(message);
    else errors.explanation ??= sentence(message);
  }
  return errors;
}

const FORM_FIELDS = ['category', 'explanation', 'reporterRole', 'name', 'depictedPerson', 'signature'] as const;
const isFormField = (key: string): key is (typeof FORM_FIELDS)[number] => (FORM_FIELDS as readonly string[]).includes(key);

function requiredMessage(field: (typeof FORM_FIELDS)[number]): string {
  return { category: MESSAGES.category, explanation: MESSAGES.explanation, reporterRole: MESSAGES.reporterRole, name: MESSAGES.name, depictedPerson: MESSAGES.depictedPerson, signature: MESSAGES.signature }[field];
}

/** A server message as a sentence: capitalised, with a full stop. */
function sentence(message: string): string {
  const text = message.trim();
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
}
