import { useLocation } from 'react-router';
import { fetchAuthSession, resendSignUpCode, signIn, signOut, type SignInOutput } from 'aws-amplify/auth';
import type { AccountRole } from '../../../../events/account-values';
import { authErrorName } from '../../auth/errors';
import { roleFromGroups } from '../../auth/portal-path';

/**
 * Password sign-in. cognito-local (the local twin) has no SRP, so every stage uses
 * USER_PASSWORD_AUTH, which the app client allows. A session left by someone else in this
 * browser is replaced.
 */
export async function passwordSignIn(email: string, password: string): Promise<SignInOutput> {
  const input = { username: email, password, options: { authFlowType: 'USER_PASSWORD_AUTH' as const } };
  try {
    return await signIn(input);
  } catch (error) {
    if (authErrorName(error) !== 'UserAlreadyAuthenticatedException') throw error;
    await signOut();
    return signIn(input);
  }
}

/**
 * The signed-in person's role from a fresh id token. `refresh` asks Cognito for new tokens first:
 * right after confirmation the group may be newer than the token (docs/product.md#talent-access).
 */
export async function currentRole(refresh = false): Promise<AccountRole | null> {
  const session = await fetchAuthSession(refresh ? { forceRefresh: true } : undefined);
  return roleFromGroups(session.tokens?.idToken?.payload['cognito:groups']);
}

/** Sends a new sign-up code (used at sign-in for an unconfirmed account, and by "Resend code"). */
export async function sendNewCode(email: string): Promise<void> {
  await resendSignUpCode({ username: email });
}

/**
 * The account pages hand the address a person typed to the next page in history state, never
 * in the URL: an address in a URL reaches access logs, browser history and referrers.
 */
interface EmailHandoff {
  email?: unknown;
}

/** Navigation options that hand `email` to the next page (`navigate(path, withEmail(a))`). */
export function withEmail(email: string): { state: EmailHandoff } {
  return { state: { email } };
}

/** The address the previous page handed on, or '' (opened directly, or after a reload in another tab). */
export function useHandedEmail(): string {
  const state = useLocation().state as EmailHandoff | null;
  return typeof state?.email === 'string' ? state.email : '';
}

/** The confirmation step, keeping the page to return to; the address goes with `withEmail`. */
export function confirmPath(next?: string | null, resent = false): string {
  const q = new URLSearchParams();
  if (resent) q.set('resent', '1');
  if (next) q.set('next', next);
  const query = q.toString();
  return query ? `/confirm-sign-up?${query}` : '/confirm-sign-up';
}
