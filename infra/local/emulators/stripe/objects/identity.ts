// Identity: VerificationSessions, the VerificationReport of each submission, and the files a
// submission uploads (the document's image, the selfie).
import type Stripe from 'stripe';

export type Dob = Stripe.Identity.VerificationSession.VerifiedOutputs.Dob;

export function verificationSession(v: {
  id: string;
  url: string;
  clientSecret: string;
  clientReferenceId: string | null;
  metadata: Stripe.Metadata;
  options: Stripe.Identity.VerificationSession.Options;
  relatedCustomer: string | null;
  created: number;
}): Stripe.Identity.VerificationSession {
  // `verified_outputs` (and its `dob`) and `provided_details` are left out: Stripe includes them only when expanded.
  return {
    id: v.id,
    object: 'identity.verification_session',
    client_reference_id: v.clientReferenceId,
    client_secret: v.clientSecret,
    created: v.created,
    last_error: null,
    last_verification_report: null,
    livemode: false,
    metadata: v.metadata,
    options: v.options,
    redaction: null,
    related_customer: v.relatedCustomer,
    related_customer_account: null,
    status: 'requires_input',
    type: 'document',
    url: v.url,
  };
}

/** The verified name and date of birth, as `verified_outputs` holds them (`dob` shown only when expanded). */
export function verifiedOutputs(o: { firstName: string | null; lastName: string | null; dob: Dob | null }): Stripe.Identity.VerificationSession.VerifiedOutputs {
  return {
    address: null,
    dob: o.dob,
    email: null,
    first_name: o.firstName,
    id_number_type: null,
    last_name: o.lastName,
    phone: null,
  };
}

type ReportDocument = Stripe.Identity.VerificationReport.Document;
type ReportSelfie = Stripe.Identity.VerificationReport.Selfie;

export function documentCheck(d: {
  status: 'verified' | 'unverified';
  error: { code: string; reason: string } | null;
  type: Stripe.Identity.VerificationReport.Document.Type;
  files: string[];
  firstName: string | null;
  lastName: string | null;
  dob: Dob | null;
  issued: Dob | null;
  expires: Dob | null;
}): ReportDocument {
  // `number`, `sex` and the place of birth are left out; `dob` is kept here and left out of
  // answers unless expanded, as Stripe does (identity.ts).
  return {
    address: null,
    dob: d.dob,
    error: d.error,
    expiration_date: d.expires,
    files: d.files,
    first_name: d.firstName,
    issued_date: d.issued,
    issuing_country: d.firstName === null ? null : 'US',
    last_name: d.lastName,
    status: d.status,
    type: d.type,
  };
}

export function selfieCheck(s: { status: 'verified' | 'unverified'; error: { code: string; reason: string } | null; selfie: string | null; document: string | null }): ReportSelfie {
  return { document: s.document, error: s.error, selfie: s.selfie, status: s.status };
}

export function verificationReport(r: {
  id: string;
  session: string;
  clientReferenceId: string | null;
  options: Stripe.Identity.VerificationReport.Options;
  document: ReportDocument;
  selfie: ReportSelfie | undefined;
  created: number;
}): Stripe.Identity.VerificationReport {
  return {
    id: r.id,
    object: 'identity.verification_report',
    client_reference_id: r.clientReferenceId,
    created: r.created,
    document: r.document,
    livemode: false,
    options: r.options,
    ...(r.selfie && { selfie: r.selfie }),
    type: 'document',
    verification_session: r.session,
  };
}

/** A file a verification uploaded; its contents are served at `url` with the secret key, as files.stripe.com serves them. */
export function identityFile(f: { id: string; purpose: 'identity_document_downloadable' | 'selfie'; filename: string; size: number; type: string; url: string; created: number }): Stripe.File {
  return {
    id: f.id,
    object: 'file',
    created: f.created,
    expires_at: null,
    filename: f.filename,
    purpose: f.purpose,
    size: f.size,
    title: null,
    type: f.type,
    url: f.url,
  };
}
