// The applicant's identity calls (docs/identity.md; events/identity.ts): where the application
// stands, the consent and signature, the ID verification with Stripe and replacement photos. No account: the
// identity token from the confirmation answer or the replace link opens its own application.
// Answers are checked against the shared contract, whose schemas load with the first call.
import type { IdentityStatus, ReplacementSubmitRequest, ReplacementUploadResponse, VerificationResponse } from '../../../../events/identity';
import { ApiError, apiClient, type ApiOptions, type Refusal } from '../../api/client';

/** A refusal, with the fields the server named (`{ error, fields }`), if it named any. */
export class IdentityApiError extends ApiError {
  override name = 'IdentityApiError';
  constructor(
    message: string,
    status: number,
    serverError: string | undefined,
    readonly fields: Readonly<Record<string, string>>,
  ) {
    super(message, status, serverError);
  }
}

/** `fields` of a refusal's body: only string messages. */
function fieldsOf(json: unknown): Record<string, string> {
  const raw = json && typeof json === 'object' && 'fields' in json ? json.fields : undefined;
  const fields: Record<string, string> = {};
  if (!raw || typeof raw !== 'object') return fields;
  for (const [key, value] of Object.entries(raw)) if (typeof value === 'string' && value.trim()) fields[key] = value;
  return fields;
}

const refused = (r: Refusal): ApiError =>
  new IdentityApiError(r.serverError ?? `${r.what} failed (HTTP ${r.status})`, r.status, r.serverError, fieldsOf(r.json));

/** A file to upload, as the presign call takes it. */
export interface UploadFile {
  contentType: 'image/jpeg' | 'image/png';
  size: number;
}

export interface IdentityApi {
  /** `POST /founding-identity`: where the applicant stands. */
  status(token: string): Promise<IdentityStatus>;
  /** `POST /founding-identity/consent`: the face data answer and the signature. */
  consent(request: { token: string; faceConsent: boolean; typedName: string; consentVersion: string }): Promise<IdentityStatus>;
  /** `POST /founding-identity/withdraw-consent`: withdraws the face data consent (the selfie and face analyses are deleted). */
  withdrawConsent(token: string): Promise<IdentityStatus>;
  /** `POST /founding-identity/verification`: opens (or reopens) the ID verification; answers Stripe's page to send the applicant to. */
  verification(token: string): Promise<VerificationResponse>;
  /** `POST /founding-identity/replacement-uploads`: one presigned PUT per file, in the files' order. */
  replacementUploads(token: string, files: readonly UploadFile[]): Promise<ReplacementUploadResponse>;
  /** `POST /founding-identity/replacements`: drops the photos named and adds the uploaded ones; the check runs again. */
  submitReplacements(request: ReplacementSubmitRequest): Promise<IdentityStatus>;
}

const schemas = () => import('../../../../events/identity');

export function identityApi(options: Pick<ApiOptions, 'apiUrl' | 'fetch'>): IdentityApi {
  const api = apiClient({ ...options, wording: { refused } });
  const status = (path: string, body: unknown) => api.read('POST', path, () => schemas().then((s) => s.IdentityStatus), { body, signedIn: false });
  return {
    status: (token) => status('/founding-identity', { token }),
    consent: (request) => status('/founding-identity/consent', request),
    withdrawConsent: (token) => status('/founding-identity/withdraw-consent', { token }),
    verification: (token) =>
      api.read('POST', '/founding-identity/verification', () => schemas().then((s) => s.VerificationResponse), { body: { token }, signedIn: false }),
    replacementUploads: (token, files) =>
      api.read('POST', '/founding-identity/replacement-uploads', () => schemas().then((s) => s.ReplacementUploadResponse), {
        body: { token, files: files.map((f) => ({ contentType: f.contentType, size: f.size })) },
        signedIn: false,
        expect: (answer) => (answer.uploads.length === files.length ? undefined : `uploads: ${answer.uploads.length} for ${files.length} files`),
      }),
    submitReplacements: (request) => status('/founding-identity/replacements', request),
  };
}
