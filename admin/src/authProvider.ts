import { confirmSignIn, fetchAuthSession, signIn, signOut, type JWT } from 'aws-amplify/auth';
import type { AuthProvider, UserIdentity } from 'react-admin';

/** The Cognito group whose members may use the review console. */
const ADMIN_GROUP = 'admin';

export const NO_ACCESS_MESSAGE =
  'Your account does not have access to the review console. Ask an administrator to add you to the admin group.';

export const FORBIDDEN_MESSAGE =
  'You are not allowed to do that. Your account may not be in the admin group.';

const NEW_PASSWORD_REQUIRED_MESSAGE =
  'This account still has a temporary password. Ask an administrator to set a permanent password, then sign in again.';

const BAD_CREDENTIALS_MESSAGE = 'Incorrect email or password.';

const SESSION_EXPIRED_MESSAGE = 'Your session has ended. Please sign in again.';

const CODE_NEEDED_MESSAGE = 'Enter the six-digit code from your authenticator app.';
const WRONG_CODE_MESSAGE = 'That code is not right or has expired. Enter the current six-digit code from your authenticator app.';

interface LoginParams {
  email: string;
  password: string;
  /** The six-digit code of the admin's authenticator app (two-factor sign-in). */
  code?: string;
}

/**
 * Listed in the permissions when the id token carries the two-factor sign-in mark that the
 * pre-token-generation trigger adds (claim `mfa`); the API refuses admins without it.
 */
const MFA_PERMISSION = 'mfa:totp';

/** True when the permissions returned by `getPermissions` include the admin group. */
export function isAdmin(permissions: unknown): boolean {
  return Array.isArray(permissions) && permissions.includes(ADMIN_GROUP);
}

/** True when this sign-in passed two-factor sign-in. */
export function hasTwoFactor(permissions: unknown): boolean {
  return Array.isArray(permissions) && permissions.includes(MFA_PERMISSION);
}

/**
 * The signed-in user's id token, or undefined when nobody is signed in. Amplify refreshes
 * an expired token here when it can; if the refresh fails the session is gone.
 */
export async function getIdToken(): Promise<JWT | undefined> {
  const session = await fetchAuthSession();
  return session.tokens?.idToken;
}

function groupsOf(idToken: JWT): string[] {
  const groups = idToken.payload['cognito:groups'];
  return Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [];
}

function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

/** Turns Cognito's sign-in errors into messages for the login form. */
function signInErrorMessage(error: unknown): string {
  switch (errorName(error)) {
    // Cognito answers NotAuthorized for a wrong password (cognito-local: InvalidPassword);
    // UserNotFound only when user existence errors are not suppressed. All read the same
    // so they reveal nothing.
    case 'NotAuthorizedException':
    case 'InvalidPasswordException':
    case 'UserNotFoundException':
      return BAD_CREDENTIALS_MESSAGE;
    case 'PasswordResetRequiredException':
      return 'This account must reset its password. Ask an administrator for help.';
    case 'UserNotConfirmedException':
      return 'This account is not confirmed yet. Ask an administrator to confirm it.';
    case 'EmptySignInUsername':
      return 'Enter your email.';
    case 'EmptySignInPassword':
      return 'Enter your password.';
    default:
      return error instanceof Error && error.message ? error.message : 'Sign-in failed. Please try again.';
  }
}

async function signInWithPassword(username: string, password: string) {
  // cognito-local (the local twin) has no SRP, so both stages use USER_PASSWORD_AUTH;
  // the app client must allow ALLOW_USER_PASSWORD_AUTH.
  return signIn({ username, password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
}

export const authProvider: AuthProvider = {
  async login({ email, password, code: codeInput }: LoginParams) {
    // Admin accounts are seeded with lower-case emails as their usernames.
    const username = String(email ?? '').trim().toLowerCase();
    let result;
    try {
      result = await signInWithPassword(username, String(password ?? ''));
    } catch (error) {
      if (errorName(error) !== 'UserAlreadyAuthenticatedException') {
        throw new Error(signInErrorMessage(error), { cause: error });
      }
      // A stale session from another user (or another tab) is still stored: replace it.
      await signOut();
      try {
        result = await signInWithPassword(username, String(password ?? ''));
      } catch (retryError) {
        throw new Error(signInErrorMessage(retryError), { cause: retryError });
      }
    }
    if (result.nextStep.signInStep === 'CONFIRM_SIGN_IN_WITH_TOTP_CODE') {
      const code = String(codeInput ?? '').replace(/\s/g, '');
      if (!/^\d{6}$/.test(code)) throw new Error(CODE_NEEDED_MESSAGE);
      try {
        result = await confirmSignIn({ challengeResponse: code });
      } catch (error) {
        throw new Error(errorName(error) === 'CodeMismatchException' ? WRONG_CODE_MESSAGE : signInErrorMessage(error), { cause: error });
      }
    }
    switch (result.nextStep.signInStep) {
      case 'DONE':
        return;
      case 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED':
        // Seeded admins get a permanent password, so the console does not offer a
        // set-new-password step yet.
        throw new Error(NEW_PASSWORD_REQUIRED_MESSAGE);
      default:
        throw new Error(
          `Sign-in needs a step the review console does not support yet (${result.nextStep.signInStep}).`,
        );
    }
  },

  async logout() {
    try {
      await signOut();
    } catch {
      // signOut clears the local tokens even when revoking them remotely fails; the user
      // is signed out of this browser either way.
    }
  },

  async checkAuth() {
    let idToken: JWT | undefined;
    try {
      idToken = await getIdToken();
    } catch {
      // A stored session whose refresh failed.
      throw { message: SESSION_EXPIRED_MESSAGE };
    }
    // `message: false`: a visitor who never signed in goes to the login page silently.
    if (!idToken) throw { message: false };
  },

  async checkError(error: { status?: number }) {
    const status = error?.status;
    if (status === 401) {
      throw { message: SESSION_EXPIRED_MESSAGE };
    }
    if (status === 403) {
      // Signed in but not allowed: keep the session, say why.
      throw { logoutUser: false, message: FORBIDDEN_MESSAGE };
    }
  },

  async getIdentity(): Promise<UserIdentity> {
    const idToken = await getIdToken();
    if (!idToken) throw new Error('Not signed in');
    const { sub, email } = idToken.payload;
    const id = typeof sub === 'string' ? sub : String(idToken.payload['cognito:username'] ?? '');
    return { id, fullName: typeof email === 'string' ? email : id };
  },

  async getPermissions(): Promise<string[]> {
    const idToken = await getIdToken();
    if (!idToken) return [];
    return idToken.payload.mfa === 'totp' ? [...groupsOf(idToken), MFA_PERMISSION] : groupsOf(idToken);
  },
};
