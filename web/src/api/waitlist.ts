import type { ConfirmWaitlistResponse, EarlySignupRequest, EarlySignupResponse } from '../../../events/waitlist';
import { SIGNUP_TYPES as SIGNUP_TYPE_LABELS, WAITLIST_FULL_MESSAGE, WAITLIST_HONEYPOT_FIELD, type SignupType } from '../../../events/waitlist-values';
import { ApiError, postJson } from './client';

export type { ConfirmWaitlistResponse, EarlySignupRequest, EarlySignupResponse, SignupType };
export { WAITLIST_HONEYPOT_FIELD };

/** The signup types of the form, in the order the form lists them. */
export const SIGNUP_TYPES = (Object.keys(SIGNUP_TYPE_LABELS) as SignupType[]).map((value) => ({
  value,
  label: SIGNUP_TYPE_LABELS[value],
}));

export interface WaitlistFormValues {
  firstName: string;
  email: string;
  signupType: SignupType | '';
  newsletter: boolean;
  /** The honeypot's value: empty for people (docs/product.md#waitlist-abuse). */
  honeypot?: string;
}

/** Builds the request body: email lowercased and trimmed, empty optional fields omitted. */
export function toEarlySignupRequest(values: WaitlistFormValues): EarlySignupRequest {
  const body: EarlySignupRequest = {
    email: values.email.trim().toLowerCase(),
    newsletter: values.newsletter,
    terms: true,
  };
  const firstName = values.firstName.trim();
  if (firstName) body.firstName = firstName;
  if (values.signupType) body.signupType = values.signupType;
  if (values.honeypot) body[WAITLIST_HONEYPOT_FIELD] = values.honeypot;
  return body;
}

/** Asks to join: a confirmation email is on its way when this resolves. */
export async function submitEarlySignup(apiUrl: string, body: EarlySignupRequest): Promise<EarlySignupResponse> {
  const res = await postJson<Partial<EarlySignupResponse> & { error?: string }>(apiUrl, '/early-signup', body);
  // An `error` field in the result is a failure, whatever the status (as the original clients read it).
  if (typeof res.error === 'string' || res.success !== true) {
    throw new ApiError(res.error ?? 'Signup was not accepted', 200);
  }
  return { success: true, confirmationSent: true };
}

/** Follows a confirmation link: takes the place (or shows the one already held). */
export async function confirmWaitlist(apiUrl: string, token: string): Promise<ConfirmWaitlistResponse> {
  const res = await postJson<Partial<ConfirmWaitlistResponse> & { error?: string }>(apiUrl, '/confirm-waitlist', { token });
  if (typeof res.error === 'string' || res.success !== true || typeof res.position !== 'number') {
    throw new ApiError(res.error ?? 'The confirmation was not accepted', 200);
  }
  return { success: true, position: res.position, alreadySignedUp: res.alreadySignedUp === true };
}

export interface ToastText {
  title: string;
  description: string;
}

/** Maps a failed signup to its toast (docs/product.md#waitlist-form). */
export function waitlistErrorToast(err: unknown): ToastText {
  const message = err instanceof Error ? err.message : String(err);
  if (message.includes(WAITLIST_FULL_MESSAGE)) {
    return { title: 'Waitlist Full', description: 'The waitlist has reached capacity. Please check back later.' };
  }
  // A 400 names the field that was wrong (e.g. an invalid email), a 429 the limit reached: more useful than the generic text.
  if (err instanceof ApiError && (err.status === 400 || err.status === 429) && message.trim()) {
    return { title: 'Submission failed', description: message };
  }
  return { title: 'Submission failed', description: 'There was a problem submitting your signup. Please try again.' };
}
