import { CONTACT_LIMITS as SHARED_LIMITS, CONTACT_PAGES, CONTACT_RESPONSE_HOURS } from '../../../events/contact-values';
import { ApiError, apiClient, plainWording, type Refusal } from './client';
import { EMAIL_PATTERN } from '../lib/email';

/**
 * The contact form's client: `POST {apiUrl}/contact`.
 *
 * Contract (shared with the API):
 *   request  `{ firstName, lastName, email, subject, message, page }` (JSON; page = the route it was sent from)
 *   202      `{ received: true }`
 *   400      `{ error: string, fields: { [field]: message } }`
 *   other    any non-2xx status: a generic failure
 *
 * The browser checks the same rules before sending (limits from events/contact-values.ts, the
 * email pattern of the server's zod check). The server names fields in developer terms
 * ("firstName is required"); `friendlyFieldMessage` maps those to the messages below, so a
 * person sees one set of messages whichever side catches the mistake.
 */

export const CONTACT_FIELDS = ['firstName', 'lastName', 'email', 'subject', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export type ContactValues = Record<ContactField, string>;

export interface ContactRequest extends ContactValues {
  /** The route the form was sent from: `/contact`, `/pre-launch-contact` or `/founding-talent-contact`. */
  page?: string;
}

export interface ContactResponse {
  received: true;
}

export type ContactFieldErrors = Partial<Record<ContactField, string>>;

/** Maximum lengths, counted on the trimmed value (shared with the server). */
export const CONTACT_LIMITS: Record<ContactField, number> = {
  firstName: SHARED_LIMITS.name,
  lastName: SHARED_LIMITS.name,
  email: SHARED_LIMITS.email,
  subject: SHARED_LIMITS.subject,
  message: SHARED_LIMITS.message,
};

/** "within 24 hours" (docs/product.md#contact). */
export const CONTACT_RESPONSE_TIME = `within ${CONTACT_RESPONSE_HOURS} hours`;

/** Display names used in the messages below. */
const FIELD_LABELS: Record<ContactField, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  subject: 'Subject',
  message: 'Message',
};

const CONTACT_MESSAGES = {
  required: {
    firstName: 'Please enter your first name.',
    lastName: 'Please enter your last name.',
    email: 'Please enter your email address.',
    subject: 'Please enter a subject.',
    message: 'Please enter a message.',
  } satisfies Record<ContactField, string>,
  invalidEmail: 'Please enter a valid email address.',
  tooLong: (field: ContactField) =>
    `${FIELD_LABELS[field]} must be ${CONTACT_LIMITS[field].toLocaleString('en-US')} characters or fewer.`,
} as const;

/** Trims every field; what is validated is what is sent. */
export function normalizeContact(values: ContactValues): ContactValues {
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    subject: values.subject.trim(),
    message: values.message.trim(),
  };
}

/** Validates already-normalized values; returns one message per invalid field (empty when valid). */
export function validateContact(values: ContactValues): ContactFieldErrors {
  const errors: ContactFieldErrors = {};
  for (const field of CONTACT_FIELDS) {
    const value = values[field];
    if (value === '') errors[field] = CONTACT_MESSAGES.required[field];
    else if (value.length > CONTACT_LIMITS[field]) errors[field] = CONTACT_MESSAGES.tooLong(field);
    else if (field === 'email' && !EMAIL_PATTERN.test(value)) errors[field] = CONTACT_MESSAGES.invalidEmail;
  }
  return errors;
}

/** The server rejected some fields (HTTP 400 with `fields`). */
export class ContactValidationError extends ApiError {
  override name = 'ContactValidationError';
  constructor(
    message: string,
    readonly fields: ContactFieldErrors,
  ) {
    super(message, 400);
  }
}

function isContactField(key: string): key is ContactField {
  return (CONTACT_FIELDS as readonly string[]).includes(key);
}

/** Maps the server's message for a field to the form's wording; unknown messages pass through. */
function friendlyFieldMessage(field: ContactField, serverMessage: string): string {
  if (/\bis required\b/i.test(serverMessage)) return CONTACT_MESSAGES.required[field];
  if (/\bat most\b/i.test(serverMessage)) return CONTACT_MESSAGES.tooLong(field);
  if (/valid email/i.test(serverMessage)) return CONTACT_MESSAGES.invalidEmail;
  return serverMessage;
}

/** Keeps only the form's own fields with a string message. */
function readFieldErrors(raw: unknown): ContactFieldErrors {
  const fields: ContactFieldErrors = {};
  if (!raw || typeof raw !== 'object') return fields;
  for (const [key, value] of Object.entries(raw)) {
    if (isContactField(key) && typeof value === 'string' && value.trim()) fields[key] = friendlyFieldMessage(key, value);
  }
  return fields;
}

/** The server accepts only its contact pages as `page`; from anywhere else the field is left out. */
export function contactPage(pathname: string): string | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (CONTACT_PAGES as readonly string[]).includes(path) ? path : undefined;
}

/** A 400 that names the form's fields becomes ContactValidationError; other refusals read as the public forms' do. */
function refused(refusal: Refusal): ApiError {
  const plain = plainWording.refused(refusal);
  const obj = refusal.json && typeof refusal.json === 'object' ? (refusal.json as Record<string, unknown>) : {};
  const fields = refusal.status === 400 ? readFieldErrors(obj.fields) : {};
  return Object.keys(fields).length > 0 ? new ContactValidationError(plain.message, fields) : plain;
}

/**
 * Sends a message. Resolves on success; throws ContactValidationError when the server names
 * invalid fields, ApiError for anything else (status 0 = network failure).
 */
export async function sendContactMessage(apiUrl: string, body: ContactRequest): Promise<ContactResponse> {
  const notConfirmed = ({ status }: { status: number }) => new ApiError('The server did not confirm the message', status);
  const answer = await apiClient({ apiUrl, wording: { ...plainWording, refused, unreadable: notConfirmed } }).call('POST', '/contact', { body });
  const obj = answer.json && typeof answer.json === 'object' ? (answer.json as Record<string, unknown>) : {};
  if (obj.received !== true) throw notConfirmed(answer);
  return { received: true };
}
