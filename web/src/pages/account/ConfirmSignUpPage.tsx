import { confirmSignUp } from 'aws-amplify/auth';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { codeErrorMessage, sendCodeErrorMessage, signInErrorMessage } from '../../auth/errors';
import { safeNextPath } from '../../auth/next-path';
import { takeSignUpPassword } from '../../auth/pending-sign-up';
import { afterSignInPath } from '../../auth/portal-path';
import { TextField } from '../../components/FormField';
import { AccountCard, FormMessage, SubmitButton, looksLikeEmail, normalEmail } from './AccountCard';
import { currentRole, passwordSignIn, sendNewCode, useHandedEmail, withEmail } from './session';

/** Seconds before "Resend code" works again. */
const RESEND_COOLDOWN_SECONDS = 30;

/**
 * /confirm-sign-up (docs/product.md#sign-in): the 6-digit code from the email; then signed
 * in (with the password typed a moment ago, kept in memory only) and taken to the role's portal.
 */
export function ConfirmSignUpPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const handedEmail = useHandedEmail();
  const [email, setEmail] = useState(handedEmail);
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [status, setStatus] = useState(params.get('resent') ? 'This account is not confirmed yet. We sent a new code to your email.' : '');
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useState(params.get('resent') ? RESEND_COOLDOWN_SECONDS : 0);
  const address = normalEmail(email);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const digits = code.replace(/\s/g, '');
    if (!looksLikeEmail(address)) return setError('Enter the email address you signed up with.');
    if (!/^\d{6}$/.test(digits)) return setError('Enter the 6-digit code from the email.');
    setError('');
    setBusy(true);
    try {
      await confirmSignUp({ username: address, confirmationCode: digits });
    } catch (err) {
      setError(codeErrorMessage(err));
      setBusy(false);
      return;
    }
    const password = takeSignUpPassword(address);
    if (!password) {
      navigate(`/sign-in?confirmed=1${next ? `&next=${encodeURIComponent(next)}` : ''}`, { replace: true, ...withEmail(address) });
      return;
    }
    try {
      const result = await passwordSignIn(address, password);
      if (result.nextStep.signInStep !== 'DONE') throw new Error('more steps');
      // The role's group was added on confirmation: a refreshed token carries it.
      navigate(afterSignInPath(next, await currentRole(true)), { replace: true });
    } catch (err) {
      setError(signInErrorMessage(err));
      navigate('/sign-in?confirmed=1', { replace: true, ...withEmail(address) });
    }
  }

  async function resend() {
    if (wait > 0 || !looksLikeEmail(address)) {
      if (!looksLikeEmail(address)) setError('Enter the email address you signed up with.');
      return;
    }
    setError('');
    setStatus('');
    setWait(RESEND_COOLDOWN_SECONDS);
    try {
      await sendNewCode(address);
      setStatus(`We sent a new code to ${address}.`);
    } catch (err) {
      const message = sendCodeErrorMessage(err);
      if (message) setError(message);
      else setStatus(`We sent a new code to ${address}.`);
    }
  }

  return (
    <AccountCard
      title="Confirm your email"
      eyebrow="One more step"
      testId="confirm-sign-up-page"
      intro={<p>We sent a 6-digit code to {address ? <strong>{address}</strong> : 'your email'}. Enter it to finish creating your account.</p>}
    >
      <form noValidate onSubmit={submit} className="account-form">
        <FormMessage error={error} status={status} />
        {!handedEmail && (
          <TextField id="confirm-email" label="Email" name="email" type="email" inputMode="email" autoComplete="email" value={email} onValueChange={setEmail} />
        )}
        <TextField
          id="confirm-code"
          label="Code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          pattern="[0-9]*"
          hint="6 digits, from the email we sent."
          value={code}
          onValueChange={(v) => setCode(v.replace(/[^\d]/g, '').slice(0, 6))}
        />
        <SubmitButton busy={busy} busyLabel="Confirming…">
          Confirm and continue
        </SubmitButton>
      </form>
      <p className="account-card__footer">
        No email?{' '}
        <button type="button" className="link-button" onClick={() => void resend()} disabled={wait > 0} data-testid="resend-code">
          {wait > 0 ? `Resend code (${wait} s)` : 'Resend code'}
        </button>
        {' '}· <Link to="/sign-in">Back to sign in</Link>
      </p>
    </AccountCard>
  );
}
