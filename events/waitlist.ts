import * as z from 'zod';

import { SIGNUP_TYPES, WAITLIST_HONEYPOT_FIELD, type SignupType } from './waitlist-values';

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
    /** The honeypot: people leave it empty (waitlist-values.ts). */
    [WAITLIST_HONEYPOT_FIELD]: z
      .string({ error: `${WAITLIST_HONEYPOT_FIELD} must be a string` })
      .max(2000, { error: `${WAITLIST_HONEYPOT_FIELD} must be at most 2000 characters` })
      .optional(),
  })
  .strict();
export type EarlySignupRequest = z.infer<typeof EarlySignupRequest>;

/**
 * The answer to every accepted signup, whether the address is new, waiting for confirmation or
 * already on the list: a confirmation email is on its way, and the place is taken (or shown)
 * when its link is followed. The answer tells a stranger nothing about the address.
 */
export const EarlySignupResponse = z.object({
  success: z.literal(true),
  confirmationSent: z.literal(true),
});
export type EarlySignupResponse = z.infer<typeof EarlySignupResponse>;

/** Body of `POST /confirm-waitlist`: the token of the link in the confirmation email. */
export const ConfirmWaitlistRequest = z
  .object({
    token: z
      .string({ error: (i) => (i.input === undefined ? 'token is required' : 'token must be a string') })
      .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'token must be the 43-character code from the confirmation link' }),
  })
  .strict();
export type ConfirmWaitlistRequest = z.infer<typeof ConfirmWaitlistRequest>;

export const ConfirmWaitlistResponse = z.object({
  success: z.literal(true),
  /** 1-based place in the waitlist. */
  position: z.number().int().positive(),
  /** True when the address was already on the list before this link was followed. */
  alreadySignedUp: z.boolean(),
});
export type ConfirmWaitlistResponse = z.infer<typeof ConfirmWaitlistResponse>;

/**
 * `Waitlist.SignedUp` v1: a new, distinct signup took a place on the waitlist. No longer
 * published (it carried the address into the event archive); consumers still read it so
 * archived events can be replayed.
 */
const WaitlistSignedUpV1 = z.object({
  version: z.literal(1),
  email: z.email(),
  firstName: z.string().optional(),
  position: z.number().int().positive(),
  signupType: z.string().optional(),
  newsletter: z.boolean(),
  signedUpAt: z.iso.datetime(),
});

/**
 * `Waitlist.SignedUp` v2: a confirmed signup took a place. Ids only: the place is the signup's
 * id, and consumers read the person's details from the waitlist table, so no address or name
 * reaches the bus or its archive.
 */
export const WaitlistSignedUpV2 = z
  .object({
    version: z.literal(2),
    position: z.number().int().positive(),
    signedUpAt: z.iso.datetime(),
  })
  .strict();
export type WaitlistSignedUpV2 = z.infer<typeof WaitlistSignedUpV2>;

/** Every version a consumer of `Waitlist.SignedUp` accepts. */
export const WaitlistSignedUp = z.discriminatedUnion('version', [WaitlistSignedUpV1, WaitlistSignedUpV2]);
export type WaitlistSignedUp = z.infer<typeof WaitlistSignedUp>;
export const WAITLIST_SIGNED_UP = 'Waitlist.SignedUp';
