import { confirmSignIn, signInWithRedirect, type SignInOutput } from 'aws-amplify/auth';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { passwordProblems } from '../../../../events/account-values';
import { accountConfigNow } from '../../auth/account-config';
import { googleEnabled } from '../../auth/amplify-config';
import { authErrorName, codeErrorMessage, signInErrorMessage } from '../../auth/errors';
import { safeNextPath } from '../../auth/next-path';
import { rememberSignUp } from '../../auth/pending-sign-up';
import { afterSignInPath } from '../../auth/portal-path';
import { signedInEntry } from '../../auth/signed-in-entry';
import { useAuth } from '../../auth/useAuth';
import { TextField } from '../../components/FormField';
import { AccountCard, FormMessage, PasswordField, SessionCheck, SignedInCard, SubmitButton, looksLikeEmail, normalEmail } from './AccountCard';
import { confirmPath, currentRole, passwordSignIn, sendNewCode, useHandedEmail, withEmail } from './session';

/** /sign-in (docs/product.md#sign-in): email and password; an invited talent sets a new password here. */
export function SignInPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const [email, setEmail] = useState(useHandedEmail());
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [step, setStep] = useState<'password' | 'new-password'>('password');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // Signed in already (a plan chosen before the pricing page's script ran, a bookmark): straight on to `next`.
  const entry = signedInEntry({ loading: auth.loading, signedIn: Boolean(auth.user), role: auth.role, next: params.get('next'), busy: busy || step !== 'password' });
  const redirectTo = entry.show === 'redirect' ? entry.to : undefined;
  useEffect(() => {
    if (redirectTo) void navigate(redirectTo, { replace: true });
  }, [redirectTo, navigate]);
  const notice = params.get('confirmed') ? 'Your email is confirmed. Sign in to continue.' : params.get('reset') ? 'Your password was changed. Sign in with it.' : '';

  async function finish(result: SignInOutput, typedEmail: string, typedPassword: string) {
    switch (result.nextStep.signInStep) {
      case 'DONE':
        navigate(afterSignInPath(next, await currentRole()), { replace: true });
        return;
      case 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED':
        setStep('new-password');
        return;
      case 'CONFIRM_SIGN_UP':
        await toConfirmation(typedEmail, typedPassword);
        return;
      case 'RESET_PASSWORD':
        navigate('/reset-password', withEmail(typedEmail));
        return;
      default:
        setError('This account needs a sign-in step the site does not offer yet. Please contact us.');
    }
  }

  /** An unconfirmed account: a new code goes out, and the confirmation step signs in after it. */
  async function toConfirmation(typedEmail: string, typedPassword: string) {
    await sendNewCode(typedEmail);
    rememberSignUp(typedEmail, typedPassword);
    navigate(confirmPath(next, true), withEmail(typedEmail));
  }

  async function submitPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const address = normalEmail(email);
    if (!looksLikeEmail(address)) return setError('Enter the email address of your account.');
    if (!password) return setError('Enter your password.');
    setError('');
    setBusy(true);
    try {
      await finish(await passwordSignIn(address, password), address, password);
    } catch (err) {
      if (authErrorName(err) === 'UserNotConfirmedException') {
        await toConfirmation(address, password).catch(() => setError(signInErrorMessage(err)));
      } else {
        setError(signInErrorMessage(err));
      }
    } finally {
      setBusy(false);
    }
  }

  async function submitNewPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || passwordProblems(newPassword).length > 0) return;
    setError('');
    setBusy(true);
    try {
      await finish(await confirmSignIn({ challengeResponse: newPassword }), normalEmail(email), newPassword);
    } catch (err) {
      setError(codeErrorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  if (step === 'new-password') {
    return (
      <AccountCard
        title="Choose a new password"
        eyebrow="Sign in"
        focusKey={step}
        testId="new-password-page"
        intro={<p>Your account was opened for you with a temporary password. Choose your own password to continue.</p>}
      >
        <form noValidate onSubmit={submitNewPassword} className="account-form">
          <FormMessage error={error} />
          <PasswordField id="new-password" label="New password" value={newPassword} onChange={setNewPassword} autoComplete="new-password" rules />
          <SubmitButton busy={busy} busyLabel="Saving…" disabled={passwordProblems(newPassword).length > 0}>
            Save and continue
          </SubmitButton>
        </form>
      </AccountCard>
    );
  }

  if (entry.show === 'wait' || entry.show === 'redirect') return <SessionCheck title="Sign in" />;
  if (entry.show === 'signed-in' && auth.user) {
    return <SignedInCard eyebrow="Sign in" testId="sign-in-page" email={auth.user.email} continueTo={entry.continueTo} onSignOut={() => void auth.signOut()} />;
  }

  return (
    <AccountCard title="Sign in" eyebrow="Welcome back" testId="sign-in-page" intro={<p>Sign in to your client or talent account.</p>}>
      {googleEnabled(accountConfigNow()) && (
        <>
          <button
            type="button"
            className="button button--secondary button--block account-google"
            data-testid="google-sign-in"
            onClick={() => {
              signInWithRedirect({ provider: 'Google' }).catch((err: unknown) => setError(signInErrorMessage(err)));
            }}
          >
            <GoogleMark /> Continue with Google
          </button>
          <p className="account-divider">
            <span>or with your email</span>
          </p>
        </>
      )}
      <form noValidate onSubmit={submitPassword} className="account-form">
        <FormMessage error={error} status={notice} />
        <TextField id="sign-in-email" label="Email" name="email" type="email" inputMode="email" autoComplete="username" value={email} onValueChange={setEmail} />
        <PasswordField id="sign-in-password" label="Password" value={password} onChange={setPassword} autoComplete="current-password" />
        <p className="account-form__aside">
          <Link to="/reset-password" state={looksLikeEmail(email) ? withEmail(normalEmail(email)).state : undefined}>Forgot password?</Link>
        </p>
        <SubmitButton busy={busy} busyLabel="Signing in…">
          Sign in
        </SubmitButton>
      </form>
      <p className="account-card__footer">
        New here? <Link to={next ? `/sign-up?next=${encodeURIComponent(next)}` : '/sign-up'}>Create an account</Link>
      </p>
    </AccountCard>
  );
}

/** Google's "G", in its colours. */
function GoogleMark() {
  return (
    <svg viewBox="0 0 18 18" width="18" height="18" aria-hidden="true" focusable="false">
      <path fill="#4285F4" d="M17.64 9.2c0-.64-.06-1.25-.16-1.84H9v3.48h4.84a4.14 4.14 0 0 1-1.8 2.72v2.26h2.92c1.7-1.57 2.68-3.88 2.68-6.62z" />
      <path fill="#34A853" d="M9 18c2.43 0 4.47-.8 5.96-2.18l-2.92-2.26c-.8.54-1.84.86-3.04.86-2.34 0-4.32-1.58-5.03-3.7H.96v2.33A9 9 0 0 0 9 18z" />
      <path fill="#FBBC05" d="M3.97 10.72a5.41 5.41 0 0 1 0-3.44V4.95H.96a9 9 0 0 0 0 8.1l3.01-2.33z" />
      <path fill="#EA4335" d="M9 3.58c1.32 0 2.5.45 3.44 1.35l2.58-2.58A9 9 0 0 0 .96 4.95l3.01 2.33C4.68 5.16 6.66 3.58 9 3.58z" />
    </svg>
  );
}
