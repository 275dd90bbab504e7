// Where the applicant stands and what every answer of the identity routes says to them
// (docs/identity.md, decision 056). Plain functions, so the pages stay thin and the unit tests read them.
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

/** Where this tab keeps the token: Stripe sends the applicant back to /founding/identity without it. */
export const TOKEN_STORAGE_KEY = 'humanly.identity-token';

type TokenStorage = Pick<Storage, 'getItem' | 'setItem'>;

function tabStorage(): TokenStorage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined; // storage blocked: only the link itself opens the page
  }
}

/**
 * The token this page works with. The link's fragment is the way in: its token is kept for this
 * tab (sessionStorage, gone when the tab closes) and wins over a kept one. Without a fragment, as
 * on the way back from Stripe's page, the kept token; `fromLink` says which.
 */
export function tokenForTab(hash: string, storage: TokenStorage | undefined = tabStorage()): { token?: string; fromLink: boolean } {
  const fromHash = tokenFromHash(hash);
  try {
    if (fromHash) {
      storage?.setItem(TOKEN_STORAGE_KEY, fromHash);
      return { token: fromHash, fromLink: true };
    }
    const kept = storage?.getItem(TOKEN_STORAGE_KEY) ?? undefined;
    return { token: kept && TOKEN_PATTERN.test(kept) ? kept : undefined, fromLink: false };
  } catch {
    return { token: fromHash, fromLink: !!fromHash };
  }
}

/** The step of the flow an answer resumes at: consent (the face data answer, then the signature), the ID verification, or done. */
export type Step = 'consent' | 'verify' | 'done';

export function stepOf(status: IdentityStatus): Step {
  if (!status.consent.signedAt || status.faceConsent === 'pending') return 'consent';
  return status.verification.state === 'verified' ? 'done' : 'verify';
}

/** Whether Stripe's page asks for a selfie too: only with face checks agreed to (decision 056). */
export const verifiesWithSelfie = (status: Pick<IdentityStatus, 'faceConsent'>) => status.faceConsent === 'given';

/**
 * What the verification step shows: `start` (nothing opened yet), `unfinished` (a session is open
 * and the applicant left Stripe's page before the end), `returning` (just back from Stripe, whose
 * answer has not reached us yet), `processing` (Stripe is checking), `failed` (Stripe could not
 * verify, or the verification was stopped; another try is left), `none-left` (no try left),
 * `under-18`, or `verified`.
 */
export type VerificationView = 'start' | 'unfinished' | 'returning' | 'processing' | 'failed' | 'none-left' | 'under-18' | 'verified';

/**
 * Reads `verification` of an answer. `justReturned`: the page was reached from Stripe (no token in
 * the link) a moment ago, so a session still `started` is most likely one whose result is on its way.
 */
export function verificationView(verification: IdentityStatus['verification'], justReturned = false): VerificationView {
  switch (verification.state) {
    case 'not-started':
      return verification.sessionsLeft > 0 ? 'start' : 'none-left';
    case 'started':
      return justReturned ? 'returning' : 'unfinished';
    case 'processing':
      return 'processing';
    case 'verified':
      return 'verified';
    case 'under-18':
      return 'under-18';
    case 'failed':
    case 'canceled':
      return verification.sessionsLeft > 0 ? 'failed' : 'none-left';
  }
}

/** How many reads after coming back from Stripe a `started` session is taken for one whose result is on its way (2 s apart). */
export const RETURN_READS = 15;

/**
 * How often the page reads the status again by itself, in ms, or false: quickly while Stripe's
 * answer is on its way, every 3 s while Stripe checks, every 15 s once that has lasted 2 minutes.
 */
export function refreshInterval(view: VerificationView, reads: number): number | false {
  if (view === 'returning') return 2000;
  if (view === 'processing') return reads < 40 ? 3000 : 15_000;
  return false;
}

/** Why the last verification did not go through, when the answer gives no reason. */
export const VERIFICATION_FALLBACKS = {
  failed: 'Stripe could not verify your ID this time. Check that the whole document is in the picture, sharp and without glare, then try again.',
  canceled: 'The verification was stopped before it was finished. You can start it again.',
} as const;

/** What the last answer says about a verification that did not go through: the server's words, or ours. */
export function verificationProblem(verification: IdentityStatus['verification']): string {
  if (verification.message) return verification.message;
  return verification.state === 'canceled' ? VERIFICATION_FALLBACKS.canceled : VERIFICATION_FALLBACKS.failed;
}

/** "2 more tries" for the failure view. */
export const triesLeftText = (sessionsLeft: number) => (sessionsLeft === 1 ? 'You can try once more.' : `You can try ${sessionsLeft} more times.`);

/** The selfie results the end of the flow reports to the applicant; the others are for the reviewer to look at. */
const SELFIE_TOLD: ReadonlySet<SelfieState> = new Set(['match', 'waiting-for-photos', 'no-set']);

/** What the last answer says about the selfie: the server's text, or ours. */
const SELFIE_FALLBACK: Partial<Record<SelfieState, string>> = {
  'waiting-for-photos': 'We compare the selfie you took with Stripe with your photos as soon as they have been checked.',
};

/**
 * The selfie's result at the end of the flow, after face consent. A result that needs a person's
 * look (no match, a copy) is not read out as a verdict: a reviewer compares by hand.
 */
export function selfieMessage(status: IdentityStatus): string | undefined {
  if (status.faceConsent !== 'given' || status.selfie.state === 'none') return undefined;
  if (!SELFIE_TOLD.has(status.selfie.state)) return 'A reviewer compares the selfie you took with Stripe with your photos.';
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
 * The words for a failed call. `page` picks the link text: the consent and verification page, or the
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
