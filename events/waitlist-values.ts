/**
 * Plain values of the waitlist contract, free of zod so the browser can import them
 * without the validation library.
 */
export const SIGNUP_TYPES = {
  'marketing-agency': 'Marketing Agency',
  'brand-company': 'Brand/Company',
  'freelancer-creator': 'Freelancer/Creator',
  startup: 'Startup',
  other: 'Other',
} as const;
export type SignupType = keyof typeof SIGNUP_TYPES;

export const WAITLIST_FULL_MESSAGE = 'Waitlist is full';

/**
 * The form's honeypot: a field people never see or reach (visually hidden, out of the tab
 * order, `aria-hidden`, no autofill). Scripts that fill every field fill it too; the server
 * answers such a signup like any other but stores and sends nothing (docs/product.md#waitlist-abuse).
 */
export const WAITLIST_HONEYPOT_FIELD = 'website';

/** Signups answered per client IP address, per hour and per day. A household or office never gets near them. */
export const WAITLIST_SIGNUPS_PER_IP_PER_HOUR = 10;
export const WAITLIST_SIGNUPS_PER_IP_PER_DAY = 30;
/** Confirmation emails sent to one address per day, whoever asks: the form cannot flood an inbox. */
export const WAITLIST_EMAILS_PER_ADDRESS_PER_DAY = 3;
/** Confirmation links tried per client IP address per hour. */
export const WAITLIST_CONFIRMS_PER_IP_PER_HOUR = 30;
/** How long a confirmation link works, and how long an unconfirmed signup is kept. */
export const WAITLIST_CONFIRMATION_HOURS = 48;

export const WAITLIST_IP_HOURLY_MESSAGE = `Too many signups from your network in the last hour (the limit is ${WAITLIST_SIGNUPS_PER_IP_PER_HOUR}). Please try again later.`;
export const WAITLIST_IP_DAILY_MESSAGE = `Too many signups from your network today (the limit is ${WAITLIST_SIGNUPS_PER_IP_PER_DAY}). Please try again tomorrow.`;
export const WAITLIST_ADDRESS_MESSAGE = `We have already sent ${WAITLIST_EMAILS_PER_ADDRESS_PER_DAY} confirmation emails to this address today. Please look for them in your inbox and spam folder, or try again tomorrow.`;
export const WAITLIST_CONFIRM_IP_MESSAGE = `Too many confirmation attempts from your network in the last hour (the limit is ${WAITLIST_CONFIRMS_PER_IP_PER_HOUR}). Please try again later.`;
export const WAITLIST_LINK_INVALID_MESSAGE = `This confirmation link is invalid, already used or expired (links work for ${WAITLIST_CONFIRMATION_HOURS} hours). Please sign up again to get a new one.`;
