// Where the applicant stands and what every answer of the identity routes says to them
// (docs/identity.md). Plain functions, so the pages stay thin and the unit tests read them.
import type { IdentityStatus, SelfieState } from '../../../../events/identity';
import { ApiError, UnexpectedAnswerError } from '../../api/client';
import { IdentityApiError } from './api';

/** An identity token as the server issues it (IdentityToken in events/identity.ts). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The token of `#token=...`: fragments never reach a server log. Undefined when absent or not one of ours. */
export function tokenFromHash(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token')?.trim();
  return token && TOKEN_PATTERN.test(token) ? token : undefined;
}

/** The page that opens the flow from a token, on this site (the QR code and the link to copy). */
export function identityLink(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/founding/identity#token=${token}`;
}

/** The selfie results after which the applicant takes another one. */
const RETAKE: ReadonlySet<SelfieState> = new Set(['none', 'no-face', 'several-faces', 'no-match']);

/** The step of the flow an answer resumes at: consent (the face data answer, then the signature), selfie, or done. */
export type Step = 'consent' | 'selfie' | 'done';

export function stepOf(status: IdentityStatus): Step {
  if (!status.consent.signedAt || status.faceConsent === 'pending') return 'consent';
  if (status.faceConsent === 'given' && RETAKE.has(status.selfie.state)) return 'selfie';
  return 'done';
}

/** What the last answer says about the selfie, for a retake: the server's text, or ours. */
const SELFIE_FALLBACK: Partial<Record<SelfieState, string>> = {
  'waiting-for-photos': 'Your selfie is saved. We compare it with your photos as soon as they have been checked.',
};

export function selfieMessage(status: IdentityStatus): string | undefined {
  return status.selfie.message ?? SELFIE_FALLBACK[status.selfie.state];
}

type ProblemKind =
  /** The link is expired, unknown or malformed: trying again will not help. */
  | 'link'
  /** Named fields are wrong: shown beside them. */
  | 'fields'
  /** Anything else: the applicant may try again. */
  | 'retry';

export interface Problem {
  kind: ProblemKind;
  /** The sentence for the page's alert. */
  text: string;
  /** Messages for named fields (the request's field names), when the server named any. */
  fields: Record<string, string>;
}

export const PROBLEM_TEXTS = {
  identityLink: (contactEmail: string) =>
    `This link no longer works: it has expired, or a newer email from us replaced it. Open the latest email from us, or write to ${contactEmail} and we will send you a new link.`,
  photosLink: (contactEmail: string) =>
    `This link to replace your photos no longer works: it has expired, or a newer email from us replaced it. Open the latest email from us, or write to ${contactEmail} and we will help you with your photos.`,
  noToken: 'This link is incomplete: open the link from our email again, in full (copying part of it does not work).',
  tooMany: 'Too many tries in a short time. Wait a few minutes, then try again.',
  network: 'We could not reach the server. Check your connection and try again.',
  server: 'Something went wrong on our side. Try again in a moment.',
  unreadable: 'We could not read the answer from our server. Try again in a moment.',
  fields: 'Check what is marked below and try again.',
} as const;

/**
 * The words for a failed call. `page` picks the link text: the consent and selfie page, or the
 * replace-photos page. Fields named by a 400 go beside their controls; `token` is the link's.
 */
export function problemOf(err: unknown, page: 'identity' | 'photos', contactEmail: string): Problem {
  const linkText = page === 'identity' ? PROBLEM_TEXTS.identityLink(contactEmail) : PROBLEM_TEXTS.photosLink(contactEmail);
  if (!(err instanceof ApiError)) return { kind: 'retry', text: err instanceof Error && err.message ? err.message : PROBLEM_TEXTS.server, fields: {} };
  if (err instanceof UnexpectedAnswerError) return { kind: 'retry', text: PROBLEM_TEXTS.unreadable, fields: {} };
  const fields = err instanceof IdentityApiError ? { ...err.fields } : {};
  if (err.status === 404 || err.status === 410 || fields.token) return { kind: 'link', text: linkText, fields: {} };
  if (err.status === 429) return { kind: 'retry', text: err.serverError ? `${PROBLEM_TEXTS.tooMany} (${err.serverError})` : PROBLEM_TEXTS.tooMany, fields: {} };
  if (err.status === 0) return { kind: 'retry', text: PROBLEM_TEXTS.network, fields: {} };
  if (err.status >= 500) return { kind: 'retry', text: PROBLEM_TEXTS.server, fields: {} };
  if (Object.keys(fields).length > 0) return { kind: 'fields', text: PROBLEM_TEXTS.fields, fields };
  return { kind: 'retry', text: err.serverError ?? PROBLEM_TEXTS.server, fields: {} };
}

/**
 * Splits a problem's field messages into those a form shows beside its own controls and the rest,
 * which join the alert (a field the page has no control for must still be read).
 */
export function placeFields(problem: Problem, own: readonly string[]): { byField: Record<string, string>; alert: string } {
  const byField: Record<string, string> = {};
  const rest: string[] = [];
  for (const [field, message] of Object.entries(problem.fields)) {
    if (own.includes(field)) byField[field] = message;
    else rest.push(message);
  }
  const alert = rest.length === 0 ? problem.text : Object.keys(byField).length === 0 ? rest.join(' ') : `${problem.text} ${rest.join(' ')}`;
  return { byField, alert };
}

/** "27 of 31 photos are usable; 3 more are needed." for the counts of an answer. */
export function photoCountText(photos: NonNullable<IdentityStatus['photos']>): string {
  const usable = `${photos.usable} of ${photos.total} ${photos.total === 1 ? 'photo is' : 'photos are'} usable`;
  if (photos.needed <= 0) return `${usable}: that is enough.`;
  return `${usable}; ${photos.needed} more usable ${photos.needed === 1 ? 'photo is' : 'photos are'} needed.`;
}

/** Weekday, date and time ("Monday, 7 December 2026 at 14:30") in the reader's time zone, for a replace link's end. */
export function untilText(iso: string, locale?: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale ?? 'en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone }).format(new Date(iso));
}
