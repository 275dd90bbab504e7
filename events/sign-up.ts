// Signing up when the address is taken (docs/product.md#sign-up-conflicts, decision 040): the
// sign-up page answers the same whether or not an address has an account, the owner of a
// confirmed account is told by email, and an address held by an unconfirmed sign-up is freed.
import * as z from 'zod';

/** Unconfirmed sign-ups older than this are removed by the accounts' hourly schedule (codes work 24 hours). */
export const UNCONFIRMED_USER_MAX_AGE_HOURS = 24;

/** `POST /sign-up-conflicts` calls per address a day, whoever asks (the owner gets at most this many notices). */
export const SIGN_UP_CONFLICTS_PER_ADDRESS_PER_DAY = 3;
/** `POST /sign-up-conflicts` calls per network (IP address) an hour. */
export const SIGN_UP_CONFLICTS_PER_IP_PER_HOUR = 20;

export const SIGN_UP_CONFLICT_ADDRESS_MESSAGE = `This address has been used to sign up ${SIGN_UP_CONFLICTS_PER_ADDRESS_PER_DAY} times today. Check your email, or try again tomorrow.`;
export const SIGN_UP_CONFLICT_IP_MESSAGE = `Too many sign-ups from your network in the last hour (at most ${SIGN_UP_CONFLICTS_PER_IP_PER_HOUR}). Please try again later.`;

const email = z
  .string({ error: (i) => (i.input === undefined ? 'email is required' : 'email must be a string') })
  .trim()
  .toLowerCase()
  .min(1, { error: 'email is required' })
  .max(254, { error: 'email must be at most 254 characters' })
  .pipe(z.email({ error: 'email must be a valid email address' }));

/** Body of `POST /sign-up-conflicts`: the address a sign-up was refused for (Cognito's UsernameExistsException). */
export const SignUpConflictRequest = z.strictObject({ email });
export type SignUpConflictRequest = z.infer<typeof SignUpConflictRequest>;

/** The answer, the same whatever the address: `{ received: true }` (202). */
export const SignUpConflictResponse = z.object({ received: z.literal(true) });
export type SignUpConflictResponse = z.infer<typeof SignUpConflictResponse>;
