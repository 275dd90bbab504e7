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
