import { signUp } from 'aws-amplify/auth';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FULL_NAME_MAX_LENGTH, ROLE_ATTRIBUTE, passwordProblems, type AccountRole } from '../../../../events/account-values';
import { signUpErrorMessage } from '../../auth/errors';
import { safeNextPath } from '../../auth/next-path';
import { rememberSignUp } from '../../auth/pending-sign-up';
import { signedInEntry } from '../../auth/signed-in-entry';
import { reportSignUpConflict, signUpAnsweringAlike } from '../../auth/sign-up-conflict';
import { useAuth } from '../../auth/useAuth';
import { useConfig } from '../../config';
import { TextField } from '../../components/FormField';
import { AccountCard, FormMessage, PasswordField, SessionCheck, SignedInCard, SubmitButton, looksLikeEmail, normalEmail } from './AccountCard';
import { confirmPath, withEmail } from './session';

const ROLE_CHOICES: readonly { role: AccountRole; title: string; body: string }[] = [
  { role: 'client', title: 'I want to create images', body: 'Brands, creators and agencies: generate licensed images of real, consenting people.' },
  { role: 'talent', title: 'I am talent', body: 'License your likeness, see how it is used and earn royalties every month.' },
];

/**
 * /sign-up (docs/product.md#sign-in): email, password, full name and a role; then the emailed
 * code. An address that has an account already leads to the same code step (decision 040).
 * Someone signed in already goes straight on to `?next=` (web/src/auth/signed-in-entry.ts).
 */
export function SignUpPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const { apiUrl } = useConfig();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const initialRole = params.get('role');
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<AccountRole | null>(initialRole === 'client' || initialRole === 'talent' ? initialRole : null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  // Signed in already (a plan chosen before the pricing page's script ran): straight on to `next`.
  const entry = signedInEntry({ loading: auth.loading, signedIn: Boolean(auth.user), role: auth.role, next: params.get('next'), busy });
  const redirectTo = entry.show === 'redirect' ? entry.to : undefined;
  useEffect(() => {
    if (redirectTo) void navigate(redirectTo, { replace: true });
  }, [redirectTo, navigate]);

  const name = fullName.trim();
  const address = normalEmail(email);
  const ready = name.length > 0 && name.length <= FULL_NAME_MAX_LENGTH && looksLikeEmail(address) && passwordProblems(password).length === 0 && role !== null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !ready || !role) return;
    setError('');
    setBusy(true);
    try {
      const outcome = await signUpAnsweringAlike({
        signUp: async () => {
          const result = await signUp({ username: address, password, options: { userAttributes: { email: address, name, [ROLE_ATTRIBUTE]: role } } });
          return { done: result.nextStep.signUpStep === 'DONE' };
        },
        reportConflict: () => reportSignUpConflict(apiUrl, address),
      });
      rememberSignUp(address, password);
      if (outcome === 'signed-up') {
        navigate(`/sign-in?confirmed=1${next ? `&next=${encodeURIComponent(next)}` : ''}`, withEmail(address));
      } else {
        navigate(confirmPath(next), withEmail(address));
      }
    } catch (err) {
      setError(signUpErrorMessage(err));
      setBusy(false);
    }
  }

  if (entry.show === 'wait' || entry.show === 'redirect') return <SessionCheck title="Create an account" />;
  if (entry.show === 'signed-in' && auth.user) {
    return <SignedInCard eyebrow="Join" testId="sign-up-page" email={auth.user.email} continueTo={entry.continueTo} onSignOut={() => void auth.signOut()} />;
  }

  return (
    <AccountCard title="Create an account" eyebrow="Join" testId="sign-up-page" intro={<p>One account for creating images or for licensing your likeness.</p>}>
      <form noValidate onSubmit={submit} className="account-form" aria-label="Create an account">
        <fieldset className="role-choice">
          <legend className="field__label">I am joining as</legend>
          <div className="role-choice__options">
            {ROLE_CHOICES.map((choice) => (
              <label key={choice.role} className={`role-card${role === choice.role ? ' role-card--selected' : ''}`} data-testid={`role-${choice.role}`}>
                <input type="radio" name="role" value={choice.role} checked={role === choice.role} onChange={() => setRole(choice.role)} />
                <span className="role-card__title">{choice.role === 'client' ? 'Client' : 'Talent'}</span>
                <span className="role-card__lead">{choice.title}</span>
                <span className="role-card__body">{choice.body}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <TextField id="sign-up-name" label="Full name" name="name" autoComplete="name" maxLength={FULL_NAME_MAX_LENGTH} value={fullName} onValueChange={setFullName} />
        <TextField id="sign-up-email" label="Email" name="email" type="email" inputMode="email" autoComplete="email" placeholder="you@example.com" value={email} onValueChange={setEmail} />
        <PasswordField id="sign-up-password" label="Password" value={password} onChange={setPassword} autoComplete="new-password" rules />
        <FormMessage error={error} />
        <SubmitButton busy={busy} busyLabel="Creating your account…" disabled={!ready}>
          Create account
        </SubmitButton>
        {!ready && (
          <p className="account-form__aside account-form__aside--muted" data-testid="sign-up-missing">
            Choose a role, then fill in your name, email and a password that meets every rule.
          </p>
        )}
      </form>
      <p className="account-card__footer">
        Already have an account? <Link to={next ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in'}>Sign in</Link>
      </p>
    </AccountCard>
  );
}
