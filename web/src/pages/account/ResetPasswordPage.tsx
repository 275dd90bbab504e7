import { confirmResetPassword, resetPassword } from 'aws-amplify/auth';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { passwordProblems } from '../../../../events/account-values';
import { codeErrorMessage, sendCodeErrorMessage } from '../../auth/errors';
import { safeNextPath } from '../../auth/next-path';
import { afterSignInPath } from '../../auth/portal-path';
import { TextField } from '../../components/FormField';
import { AccountCard, FormMessage, PasswordField, SubmitButton, looksLikeEmail, normalEmail } from './AccountCard';
import { currentRole, passwordSignIn, useHandedEmail, withEmail } from './session';

/**
 * /reset-password (docs/product.md#sign-in): the email, then the code sent to it and a new
 * password; then signed in and taken to the portal. Whether the email has an account is never
 * revealed: the second step shows either way.
 */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const [email, setEmail] = useState(useHandedEmail());
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const address = normalEmail(email);

  async function requestCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (!looksLikeEmail(address)) return setError('Enter the email address of your account.');
    setError('');
    setBusy(true);
    try {
      await resetPassword({ username: address });
      setStep('code');
    } catch (err) {
      const message = sendCodeErrorMessage(err);
      if (message) setError(message);
      else setStep('code');
    } finally {
      setBusy(false);
    }
  }

  async function setNewPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) return setError('Enter the 6-digit code from the email.');
    if (passwordProblems(password).length > 0) return setError('Choose a password that meets every rule.');
    setError('');
    setBusy(true);
    try {
      await confirmResetPassword({ username: address, confirmationCode: digits, newPassword: password });
    } catch (err) {
      setError(codeErrorMessage(err));
      setBusy(false);
      return;
    }
    try {
      const result = await passwordSignIn(address, password);
      if (result.nextStep.signInStep !== 'DONE') throw new Error('more steps');
      navigate(afterSignInPath(next, await currentRole()), { replace: true });
    } catch {
      navigate('/sign-in?reset=1', { replace: true, ...withEmail(address) });
    }
  }

  if (step === 'code') {
    return (
      <AccountCard
        title="Set a new password"
        eyebrow="Reset your password"
        focusKey={step}
        testId="reset-password-page"
        intro={<p>If <strong>{address}</strong> has an account, we sent it a 6-digit code. Enter it with your new password.</p>}
      >
        <form noValidate onSubmit={setNewPassword} className="account-form" aria-label="Set a new password">
          <FormMessage error={error} />
          <TextField
            id="reset-code"
            label="Code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            hint="6 digits, from the email we sent."
            value={code}
            onValueChange={(v) => setCode(v.replace(/[^\d]/g, '').slice(0, 6))}
          />
          <PasswordField id="reset-password" label="New password" value={password} onChange={setPassword} autoComplete="new-password" rules />
          <SubmitButton busy={busy} busyLabel="Saving…" disabled={passwordProblems(password).length > 0 || code.length !== 6}>
            Save and sign in
          </SubmitButton>
        </form>
        <p className="account-card__footer">
          <button type="button" className="link-button" onClick={() => { setStep('email'); setCode(''); setError(''); }}>
            Use another email or send a new code
          </button>
        </p>
      </AccountCard>
    );
  }

  return (
    <AccountCard title="Reset your password" eyebrow="Forgot password?" focusKey={step} testId="reset-password-page" intro={<p>Enter your account's email. We will send you a code to set a new password.</p>}>
      <form noValidate onSubmit={requestCode} className="account-form" aria-label="Reset your password">
        <FormMessage error={error} />
        <TextField id="reset-email" label="Email" name="email" type="email" inputMode="email" autoComplete="username" value={email} onValueChange={setEmail} />
        <SubmitButton busy={busy} busyLabel="Sending…">
          Send the code
        </SubmitButton>
      </form>
      <p className="account-card__footer">
        Remembered it? <Link to="/sign-in">Back to sign in</Link>
      </p>
    </AccountCard>
  );
}
