import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PASSWORD_RULES } from '../../../../events/account-values';
import { FieldError } from '../../components/FormField';
import { usePageTitle } from '../../lib/usePageTitle';
import './AccountPages.css';

/**
 * The frame of every sign-in page: one centred card with the page's heading, which takes focus
 * when `focusKey` changes (a new step), so keyboard and screen-reader users start at the top.
 */
export function AccountCard({
  title,
  eyebrow,
  intro,
  focusKey,
  testId,
  children,
}: {
  title: string;
  eyebrow?: string;
  intro?: ReactNode;
  focusKey?: string;
  testId: string;
  children: ReactNode;
}) {
  usePageTitle(title);
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
  }, [focusKey]);
  return (
    <div className="container account-page" data-testid={testId}>
      <div className="card account-card">
        {eyebrow && <p className="eyebrow">{eyebrow}</p>}
        <h1 ref={heading} tabIndex={-1} className="account-card__title">
          {title}
        </h1>
        {intro && <div className="account-card__intro">{intro}</div>}
        {children}
      </div>
    </div>
  );
}

/** The account layout's "Loading…" (web/src/auth/AccountLayout.tsx), inline for the same reason, so nothing jumps. */
const CENTRED = { display: 'grid', placeItems: 'center', minHeight: '50vh', color: 'var(--color-text-muted)' } as const;

/**
 * What a sign-in page shows while it reads the session: the layout's "Loading…" carried on, so a
 * signed-in person on their way to `?next=` never sees a form flash before they are sent on.
 */
export function SessionCheck({ title }: { title: string }) {
  usePageTitle(title);
  return (
    <div className="container" style={CENTRED} role="status" data-testid="session-check">
      Loading…
    </div>
  );
}

/** A sign-in page opened by someone signed in: who they are, Continue (to `continueTo`) and Sign out. */
export function SignedInCard({ eyebrow, testId, email, continueTo, onSignOut }: { eyebrow: string; testId: string; email: string; continueTo: string; onSignOut: () => void }) {
  return (
    <AccountCard title="You are signed in" eyebrow={eyebrow} testId={testId} intro={<p>Signed in as <strong className="account-card__email">{email}</strong>.</p>}>
      <div className="account-actions" data-testid="signed-in-card">
        <Link className="button button--primary" to={continueTo}>
          Continue
        </Link>
        <button type="button" className="button button--secondary" onClick={onSignOut}>
          Sign out
        </button>
      </div>
    </AccountCard>
  );
}

/** A form-level message, announced when it appears (role=alert for errors, status otherwise). */
export function FormMessage({ error, status, testId }: { error?: string; status?: string; testId?: string }) {
  return (
    <>
      <div role="alert" className="account-alert-slot">
        {error && (
          <p className="account-alert account-alert--error" data-testid={testId ?? 'account-error'}>
            {error}
          </p>
        )}
      </div>
      <div role="status" className="account-alert-slot">
        {status && (
          <p className="account-alert account-alert--status" data-testid="account-status">
            {status}
          </p>
        )}
      </div>
    </>
  );
}

/**
 * A password input with a show/hide toggle and, with `rules`, the user pool's policy as a
 * checklist that follows what is typed.
 */
export function PasswordField({
  id,
  label,
  value,
  onChange,
  autoComplete,
  rules = false,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  rules?: boolean;
  error?: string;
}) {
  const [visible, setVisible] = useState(false);
  const describedBy = [error ? `${id}-error` : '', rules ? `${id}-rules` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <div className="password-input">
        <input
          id={id}
          name={id}
          className="input"
          type={visible ? 'text' : 'password'}
          autoComplete={autoComplete}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          required
        />
        <button
          type="button"
          className="password-input__toggle"
          aria-pressed={visible}
          aria-controls={id}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? 'Hide' : 'Show'}
          <span className="sr-only"> password</span>
        </button>
      </div>
      {rules && (
        <ul id={`${id}-rules`} className="password-rules" aria-label="Password rules" data-testid="password-rules">
          {PASSWORD_RULES.map((rule) => {
            const met = rule.met(value);
            return (
              <li key={rule.id} className={met ? 'password-rules__met' : undefined} data-met={met}>
                <span className="password-rules__mark" aria-hidden="true">
                  {met ? '✓' : '•'}
                </span>
                {rule.label}
                <span className="sr-only">{met ? ': done' : ': not yet'}</span>
              </li>
            );
          })}
        </ul>
      )}
      {error && <FieldError id={`${id}-error`} message={error} />}
    </div>
  );
}

/** A submit button that shows it is working. */
export function SubmitButton({ busy, disabled, children, busyLabel }: { busy: boolean; disabled?: boolean; children: ReactNode; busyLabel: string }) {
  return (
    <button type="submit" className="button button--primary button--block" disabled={busy || disabled} aria-busy={busy || undefined}>
      {busy ? (
        <>
          <span className="form-spinner" aria-hidden="true" />
          {busyLabel}
        </>
      ) : (
        children
      )}
    </button>
  );
}

/** A loose check that the text looks like an email address (Cognito has the final word). */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/** Emails are usernames in lower case. */
export function normalEmail(value: string): string {
  return value.trim().toLowerCase();
}
