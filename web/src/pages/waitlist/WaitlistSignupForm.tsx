import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useConfig } from '../../config';
import { SIGNUP_TYPES, WAITLIST_HONEYPOT_FIELD, submitEarlySignup, toEarlySignupRequest, waitlistErrorToast, type SignupType } from '../../api/waitlist';
import { useToast } from '../../components/Toast';

/**
 * The early-access signup form (docs/product.md#waitlist-form). Validation is by toast, not by
 * the browser's native popups (noValidate), so our own messages are what people see.
 */
export function WaitlistSignupForm() {
  const { apiUrl } = useConfig();
  const toast = useToast();
  const navigate = useNavigate();

  const [firstName, setFirstName] = useState('');
  const [email, setEmail] = useState('');
  const [signupType, setSignupType] = useState<SignupType | ''>('');
  const [newsletter, setNewsletter] = useState(true);
  const [terms, setTerms] = useState(false);
  // The honeypot: people never see it, so it stays empty (docs/product.md#waitlist-abuse).
  const [honeypot, setHoneypot] = useState('');
  const [submitting, setSubmitting] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;

    if (!email.trim()) {
      toast({ title: 'Email required', description: 'Please enter your email address', variant: 'error' });
      document.getElementById('waitlist-email')?.focus();
      return;
    }
    if (!terms) {
      toast({ title: 'Terms required', description: 'Please agree to the Terms of Service and Privacy Policy', variant: 'error' });
      document.getElementById('waitlist-terms')?.focus();
      return;
    }

    setSubmitting(true);
    try {
      await submitEarlySignup(apiUrl, toEarlySignupRequest({ firstName, email, signupType, newsletter, honeypot }));
      // The place is taken when the emailed link is followed; the page says so.
      await navigate('/thank-you?type=waitlist', { state: { confirmationSent: true } });
    } catch (err) {
      const { title, description } = waitlistErrorToast(err);
      toast({ title, description, variant: 'error' });
      setSubmitting(false);
    }
  }

  return (
    <form id="signup-form" className="card signup-form" noValidate onSubmit={handleSubmit} aria-labelledby="signup-title" data-testid="signup-form">
      <h2 id="signup-title" className="signup-form__title">
        Lock in early access
      </h2>
      <p className="signup-form__intro">Join the First 200. It takes 30 seconds and costs nothing.</p>

      <div className="field">
        <label htmlFor="waitlist-first-name" className="field__label">
          First name
          <span className="field__required" aria-hidden="true">
            *
          </span>
        </label>
        <input
          id="waitlist-first-name"
          name="firstName"
          className="input"
          type="text"
          autoComplete="given-name"
          aria-required="true"
          value={firstName}
          onChange={(e) => setFirstName(e.target.value)}
          maxLength={100}
        />
      </div>

      <div className="field">
        <label htmlFor="waitlist-email" className="field__label">
          Email
          <span className="field__required" aria-hidden="true">
            *
          </span>
        </label>
        <input
          id="waitlist-email"
          name="email"
          className="input"
          type="email"
          inputMode="email"
          autoComplete="email"
          aria-required="true"
          placeholder="you@example.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          maxLength={254}
        />
      </div>

      <div className="signup-form__extra" aria-hidden="true">
        <label htmlFor="waitlist-website">Website</label>
        <input
          id="waitlist-website"
          name={WAITLIST_HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={honeypot}
          onChange={(e) => setHoneypot(e.target.value)}
        />
      </div>

      <div className="field">
        <label htmlFor="waitlist-signup-type" className="field__label">
          I am a
        </label>
        <select
          id="waitlist-signup-type"
          name="signupType"
          className="select"
          value={signupType}
          onChange={(e) => setSignupType(e.target.value as SignupType | '')}
        >
          <option value="">Select one (optional)</option>
          {SIGNUP_TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
      </div>

      <label className="checkbox">
        <input
          id="waitlist-newsletter"
          name="newsletter"
          type="checkbox"
          checked={newsletter}
          onChange={(e) => setNewsletter(e.target.checked)}
        />
        <span>Send me product updates and launch news</span>
      </label>

      <div className="checkbox">
        <input
          id="waitlist-terms"
          name="terms"
          type="checkbox"
          aria-required="true"
          checked={terms}
          onChange={(e) => setTerms(e.target.checked)}
        />
        <label htmlFor="waitlist-terms">
          I agree to the <Link to="/pre-launch-terms">Terms of Service</Link> and{' '}
          <Link to="/pre-launch-privacy">Privacy Policy</Link>
        </label>
      </div>

      <button type="submit" className="button button--primary button--block signup-form__submit" disabled={submitting} aria-disabled={submitting}>
        {submitting && <span className="spinner" aria-hidden="true" />}
        {submitting ? 'Submitting...' : 'Join the Waitlist'}
      </button>
      <p className="signup-form__fineprint">
        <span aria-hidden="true">*</span> Required. No spam: we only email you about your early access
        {newsletter ? ' and launch news' : ''}. Unsubscribe any time.
      </p>
    </form>
  );
}
