import { apiClient, plainWording } from '../api/client';
import { authErrorName } from './errors';

/** Where a sign-up leads: the code step (a code was mailed, or the owner was told), or sign-in (no code needed). */
export type SignUpOutcome = 'confirm' | 'signed-up';

export interface SignUpSteps {
  /** Cognito's SignUp; `done` when the account needs no confirmation. Throws Cognito's refusals. */
  signUp(): Promise<{ done: boolean }>;
  /** `POST /sign-up-conflicts` for the address (decision 040). */
  reportConflict(): Promise<void>;
}

/**
 * A sign-up that answers the same whether or not the address has an account (decision 040).
 * When Cognito says the address is taken, the page tells the API (which frees an address held by
 * an unconfirmed sign-up, or emails the owner of an account in use) and signs up once more: the
 * second try creates the account when the address was freed. Either way the person is sent to
 * the code step, as after any sign-up: the owner of an existing account finds our email instead
 * of a code. What the API answered is never shown, so the page reveals nothing about the address.
 */
export async function signUpAnsweringAlike(steps: SignUpSteps): Promise<SignUpOutcome> {
  try {
    return (await steps.signUp()).done ? 'signed-up' : 'confirm';
  } catch (err) {
    if (authErrorName(err) !== 'UsernameExistsException') throw err;
  }
  await steps.reportConflict().catch(() => undefined);
  try {
    return (await steps.signUp()).done ? 'signed-up' : 'confirm';
  } catch (err) {
    if (authErrorName(err) !== 'UsernameExistsException') throw err;
    return 'confirm';
  }
}

/** `POST /sign-up-conflicts`: 202 whatever the address (failures are the caller's to ignore). */
export async function reportSignUpConflict(apiUrl: string, email: string): Promise<void> {
  await apiClient({ apiUrl, wording: plainWording }).call('POST', '/sign-up-conflicts', { body: { email } });
}
