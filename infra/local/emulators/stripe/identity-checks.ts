// What Stripe Identity's checks find, in the emulator: the tester picks the outcome on the hosted
// verification page (as Stripe's test mode offers), and this module turns a submission into the
// VerificationReport's document and selfie checks, the session's `last_error` and its verified
// outputs, in Stripe's shapes and with its error codes.
import type Stripe from 'stripe';
import * as o from './objects';

/** The outcomes a tester can pick, with what the page says of each. */
export const TEST_OUTCOMES = {
  verified: { label: 'Verified', hint: 'The document and the selfie pass: the session is verified.' },
  document_unverified_other: { label: 'Document unreadable', hint: 'The document cannot be verified (document_unverified_other).' },
  document_expired: { label: 'Document expired', hint: 'The document is past its expiry date (document_expired).' },
  selfie_face_mismatch: { label: 'Selfie does not match the document', hint: 'The face in the selfie is not the one on the document (selfie_face_mismatch).' },
  under_supported_age: {
    label: 'Under 18',
    hint: 'The date of birth becomes the one of a person who turned 17 today, and the check refuses the document as under age (under_supported_age). To have a minor verified instead, pick Verified and type their date of birth.',
  },
} as const;
export type TestOutcome = keyof typeof TEST_OUTCOMES;
export const isTestOutcome = (v: string): v is TestOutcome => Object.hasOwn(TEST_OUTCOMES, v);

/** The document types Stripe Identity takes, as the page names them. */
export const DOCUMENT_TYPES = { passport: 'Passport', driving_license: "Driver's license", id_card: 'ID card' } as const;
export type DocumentType = keyof typeof DOCUMENT_TYPES;

/** Reasons in the words Stripe shows users (they can be shown as they are). */
const REASONS = {
  document_unverified_other: 'The document could not be verified: take a clear photo of the whole document, in good light.',
  document_expired: 'The document has expired: verify with a document that is still valid.',
  selfie_face_mismatch: 'The face in the selfie does not match the face on the document.',
  selfie_unverified_other: 'The selfie could not be compared with the document.',
  under_supported_age: 'The person on the document is under the minimum age Stripe Identity verifies.',
} as const;

/** One submission of the hosted page, once its files are stored. */
export interface Submission {
  outcome: TestOutcome;
  documentType: DocumentType;
  /** As typed: the first name with any middle names, as Stripe returns it. */
  firstName: string;
  lastName: string;
  dob: o.Dob;
  documentFile: string;
  selfieFile: string | null;
}

interface Findings {
  document: Stripe.Identity.VerificationReport.Document;
  selfie: Stripe.Identity.VerificationReport.Selfie | undefined;
  /** The session's `last_error` (null when verified). */
  lastError: Stripe.Identity.VerificationSession.LastError | null;
  /** The session's `verified_outputs` (null unless verified). */
  outputs: Stripe.Identity.VerificationSession.VerifiedOutputs | null;
}

/** The date of birth of a person who turns 17 on `today` (28 February for 29 February). */
export function seventeenToday(today: Date): o.Dob {
  const year = today.getUTCFullYear() - 17;
  const month = today.getUTCMonth() + 1;
  const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const day = month === 2 && today.getUTCDate() === 29 && !leap(year) ? 28 : today.getUTCDate();
  return { day, month, year };
}

const shifted = (today: Date, years: number, days = 0): o.Dob => {
  const d = new Date(Date.UTC(today.getUTCFullYear() + years, today.getUTCMonth(), today.getUTCDate() + days));
  return { day: d.getUTCDate(), month: d.getUTCMonth() + 1, year: d.getUTCFullYear() };
};

/** The checks' findings for a submission, on `today` (the emulator's clock). */
export function findingsOf(sub: Submission, today: Date): Findings {
  const unreadable = sub.outcome === 'document_unverified_other';
  const documentError: keyof typeof REASONS | null =
    sub.outcome === 'document_unverified_other' || sub.outcome === 'document_expired' || sub.outcome === 'under_supported_age' ? sub.outcome : null;
  const document = o.documentCheck({
    status: documentError ? 'unverified' : 'verified',
    error: documentError ? { code: documentError, reason: REASONS[documentError] } : null,
    type: sub.documentType,
    files: [sub.documentFile],
    // Nothing is read from a document that cannot be verified.
    firstName: unreadable ? null : sub.firstName,
    lastName: unreadable ? null : sub.lastName,
    dob: unreadable ? null : sub.dob,
    issued: unreadable ? null : shifted(today, sub.outcome === 'document_expired' ? -10 : -2),
    expires: unreadable ? null : sub.outcome === 'document_expired' ? shifted(today, 0, -30) : shifted(today, 8),
  });
  const selfieError: keyof typeof REASONS | null = !sub.selfieFile ? null : sub.outcome === 'selfie_face_mismatch' ? 'selfie_face_mismatch' : unreadable ? 'selfie_unverified_other' : null;
  const selfie = sub.selfieFile
    ? o.selfieCheck({
        status: selfieError ? 'unverified' : 'verified',
        error: selfieError ? { code: selfieError, reason: REASONS[selfieError] } : null,
        selfie: sub.selfieFile,
        document: sub.documentFile,
      })
    : undefined;
  // The session's error is the first check that failed: the document's, then the selfie's.
  const failed = documentError ?? selfieError;
  return {
    document,
    selfie,
    lastError: failed ? { code: failed, reason: REASONS[failed] } : null,
    outputs: failed ? null : o.verifiedOutputs({ firstName: sub.firstName, lastName: sub.lastName, dob: sub.dob }),
  };
}
