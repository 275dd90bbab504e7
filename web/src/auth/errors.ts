import { SIGN_IN_FAILED_MESSAGE } from '../../../events/account-values';

/** Cognito's error name (Amplify throws AuthError with Cognito's exception name). */
export function authErrorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : typeof error === 'object' && error && 'name' in error ? String(error.name) : undefined;
}

const TRY_AGAIN = 'Something went wrong. Please try again in a moment.';
const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.';
const NETWORK = 'We could not reach the sign-in service. Check your connection and try again.';

/** Cognito's reason for a password it refused, without its prefix ("Password not long enough"). */
function passwordRefusal(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const reason = message.replace(/^Password did not conform with policy:\s*/i, '').trim();
  return `Choose a stronger password: ${reason || 'it does not meet the password rules'}.`.replace(/\.\.$/, '.');
}

function common(name: string | undefined): string | undefined {
  switch (name) {
    case 'LimitExceededException':
    case 'TooManyRequestsException':
    case 'TooManyFailedAttemptsException':
    case 'ForbiddenException': // the user pool's WAF rate rules (decision 040)
      return TOO_MANY;
    case 'NetworkError':
      return NETWORK;
    default:
      return undefined;
  }
}

/**
 * Sign-in failures. A wrong password and an unknown email read exactly the same, so the page
 * never reveals whether an account exists (cognito-local answers a wrong password with
 * InvalidPasswordException; Cognito with NotAuthorizedException, or UserNotFoundException when
 * existence errors are not hidden).
 */
export function signInErrorMessage(error: unknown): string {
  const name = authErrorName(error);
  switch (name) {
    case 'NotAuthorizedException':
    case 'UserNotFoundException':
    case 'InvalidPasswordException':
      return SIGN_IN_FAILED_MESSAGE;
    case 'EmptySignInUsername':
      return 'Enter your email.';
    case 'EmptySignInPassword':
      return 'Enter your password.';
    case 'PasswordResetRequiredException':
      return 'This account needs a new password. Use "Forgot password?" to set one.';
    default:
      return common(name) ?? TRY_AGAIN;
  }
}

/**
 * Sign-up failures. A weak password shows Cognito's reason. A taken address is never an error:
 * the page answers it as a new one (sign-up-conflict.ts, decision 040).
 */
export function signUpErrorMessage(error: unknown): string {
  const name = authErrorName(error);
  switch (name) {
    case 'InvalidPasswordException':
      return passwordRefusal(error);
    case 'InvalidParameterException':
      return 'Check the email address: it does not look valid.';
    default:
      return common(name) ?? TRY_AGAIN;
  }
}

/** Failures of a code sent by email (sign-up confirmation, password reset). */
export function codeErrorMessage(error: unknown): string {
  const name = authErrorName(error);
  switch (name) {
    case 'CodeMismatchException':
      return 'That code is not right. Check the latest email we sent and try again.';
    case 'ExpiredCodeException':
      return 'That code has expired. Ask for a new code.';
    case 'InvalidPasswordException':
      return passwordRefusal(error);
    case 'UserNotFoundException':
      return 'That code is not right. Check the latest email we sent and try again.';
    case 'NotAuthorizedException':
      return 'This account is already confirmed. Sign in.';
    default:
      return common(name) ?? TRY_AGAIN;
  }
}

/** Failures of sending a code (reset request, resend). Never reveals whether the email has an account. */
export function sendCodeErrorMessage(error: unknown): string {
  const name = authErrorName(error);
  if (name === 'UserNotFoundException' || name === 'InvalidParameterException') return '';
  return common(name) ?? TRY_AGAIN;
}
