// The reports' calls (docs/product.md#reports-and-takedown): a reported file, the report itself, a
// client's appeal, and the talent's "Is this me?". Answers are checked against the shared contract
// (events/reports.ts), whose schemas load with the first call, so the report page does not load
// the validation library to start.
import type {
  AppealAccepted,
  ClientReportDecision,
  LikenessCheckResult,
  ReportCreated,
  ReportFileUploaded,
  ReportRequestInput,
} from '../../../events/reports';
import { REPORT_FILE_MAX_BYTES, REPORT_FILE_TOO_LARGE_MESSAGE } from '../../../events/report-values';
import { ApiError, apiClient, plainWording, signedInWording, type ApiOptions, type Refusal } from '../api/client';

const schemas = () => import('../../../events/reports');

/** Field messages of a 400 answer, keyed as the server names them (`email`, `urls.1`, `consentDenied`). */
export type ServerFieldErrors = Record<string, string>;

/** The server refused some fields (HTTP 400 with `fields`). */
export class ReportFieldsError extends ApiError {
  override name = 'ReportFieldsError';
  constructor(
    message: string,
    readonly fields: ServerFieldErrors,
  ) {
    super(message, 400);
  }
}

/** A 400 naming fields becomes ReportFieldsError; anything else is worded by `otherwise`. */
const refusedWith =
  (otherwise: (refusal: Refusal) => ApiError) =>
  (refusal: Refusal): ApiError => {
    const body = refusal.json && typeof refusal.json === 'object' ? (refusal.json as Record<string, unknown>) : {};
    const raw = refusal.status === 400 && body.fields && typeof body.fields === 'object' ? (body.fields as Record<string, unknown>) : {};
    const fields: ServerFieldErrors = {};
    for (const [key, value] of Object.entries(raw)) if (typeof value === 'string' && value.trim()) fields[key] = value;
    return Object.keys(fields).length > 0 ? new ReportFieldsError(refusal.serverError ?? 'Some fields need a change.', fields) : otherwise(refusal);
  };

/** A file the browser will not send: larger than the API takes. */
export function fileTooLarge(file: Blob): string | undefined {
  return file.size > REPORT_FILE_MAX_BYTES ? REPORT_FILE_TOO_LARGE_MESSAGE : undefined;
}

export interface ReportApi {
  /** `POST /reports/files` (anyone): the raw image; its id for the report and what it matched. */
  uploadFile(file: Blob, signal?: AbortSignal): Promise<ReportFileUploaded>;
  /** `POST /reports` (anyone): the case's reference, due time and match. */
  send(report: ReportRequestInput, idempotencyKey: string): Promise<ReportCreated>;
}

/** The public report form's calls: no token, whether or not someone is signed in. */
export function reportApi(options: Pick<ApiOptions, 'apiUrl' | 'fetch'>): ReportApi {
  const api = apiClient({ ...options, wording: { ...plainWording, refused: refusedWith(plainWording.refused) } });
  return {
    uploadFile: (file, signal) =>
      api.read('POST', '/reports/files', () => schemas().then((s) => s.ReportFileUploaded), { body: file, signedIn: false, signal }),
    send: (report, idempotencyKey) =>
      api.read('POST', '/reports', () => schemas().then((s) => s.ReportCreated), {
        body: report,
        signedIn: false,
        headers: { 'idempotency-key': idempotencyKey },
      }),
  };
}

export interface SignedInReportApi {
  /** `POST /me/likeness-check` (talent): the raw image. */
  checkFile(file: Blob): Promise<LikenessCheckResult>;
  /** `POST /me/likeness-check/url` (talent): the server fetches the image at `url`. */
  checkUrl(url: string): Promise<LikenessCheckResult>;
  /** `POST /reports/{reference}/appeal` (the client of the revoked license). */
  appeal(reference: string, statement: string): Promise<AppealAccepted>;
  /** `GET /reports/{reference}/decision` (the client of the license): the decision with its statement of reasons. */
  decision(reference: string): Promise<ClientReportDecision>;
}

/** The signed-in calls: "Is this me?" in the talent portal and the client's appeal. */
export function signedInReportApi(options: ApiOptions & { getIdToken: () => Promise<string | undefined> }): SignedInReportApi {
  const api = apiClient({ ...options, wording: { refused: refusedWith(signedInWording.refused) } });
  const check = () => schemas().then((s) => s.LikenessCheckResult);
  return {
    checkFile: (file) => api.read('POST', '/me/likeness-check', check, { body: file }),
    checkUrl: (url) => api.read('POST', '/me/likeness-check/url', check, { body: { url } }),
    appeal: (reference, statement) =>
      api.read('POST', `/reports/${encodeURIComponent(reference)}/appeal`, () => schemas().then((s) => s.AppealAccepted), { body: { statement } }),
    decision: (reference) => api.read('GET', `/reports/${encodeURIComponent(reference)}/decision`, () => schemas().then((s) => s.ClientReportDecision)),
  };
}
