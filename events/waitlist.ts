import * as z from 'zod';

import { SIGNUP_TYPES, type SignupType } from './waitlist-values';

export { WAITLIST_FULL_MESSAGE, type SignupType } from './waitlist-values';

const email = z
  .string({ error: (i) => (i.input === undefined ? 'email is required' : 'email must be a string') })
  .trim()
  .toLowerCase()
  .min(1, { error: 'email is required' })
  .max(254, { error: 'email must be at most 254 characters' })
  .pipe(z.email({ error: 'email must be a valid email address' }));

/**
 * Body of `POST /early-signup` (and `/functions/v1/early-signup`). Clients of the original
 * backend send only `{ email }`; our form also sends the fields it collects.
 */
export const EarlySignupRequest = z
  .object({
    email,
    firstName: z
      .string({ error: 'firstName must be a string' })
      .trim()
      .max(100, { error: 'firstName must be at most 100 characters' })
      .optional(),
    signupType: z
      .enum(Object.keys(SIGNUP_TYPES) as [SignupType, ...SignupType[]], {
        error: `signupType must be one of ${Object.keys(SIGNUP_TYPES).join(', ')}`,
      })
      .optional(),
    newsletter: z.boolean({ error: 'newsletter must be true or false' }).optional(),
    terms: z
      .literal(true, { error: 'terms must be accepted: agree to the Terms of Service and Privacy Policy' })
      .optional(),
  })
  .strict();
export type EarlySignupRequest = z.infer<typeof EarlySignupRequest>;

export const EarlySignupResponse = z.object({
  success: z.literal(true),
  /** 1-based place in the waitlist. */
  position: z.number().int().positive(),
  /** True when this email had already signed up; nothing new was stored or sent. */
  alreadySignedUp: z.boolean(),
});
export type EarlySignupResponse = z.infer<typeof EarlySignupResponse>;

/** `Waitlist.SignedUp` v1: a new, distinct signup took a place on the waitlist. */
export const WaitlistSignedUpV1 = z.object({
  version: z.literal(1),
  email: z.email(),
  firstName: z.string().optional(),
  position: z.number().int().positive(),
  signupType: z.string().optional(),
  newsletter: z.boolean(),
  signedUpAt: z.iso.datetime(),
});
export type WaitlistSignedUpV1 = z.infer<typeof WaitlistSignedUpV1>;
export const WAITLIST_SIGNED_UP = 'Waitlist.SignedUp';
