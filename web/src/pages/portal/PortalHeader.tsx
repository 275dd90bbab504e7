import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { SignedIn } from './PortalGate';

/**
 * The top of a portal: what it is, a welcome, and who is signed in with a way to sign out. Sign
 * out ends the session everywhere (every device's refresh token is revoked) and leads to sign-in.
 */
export function PortalHeader({ auth, eyebrow, title, lead }: { auth: SignedIn; eyebrow: string; title: string; lead: ReactNode }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function signOut() {
    setBusy(true);
    setError('');
    try {
      await auth.signOut();
      void navigate('/sign-in', { replace: true });
    } catch {
      setError('We could not sign you out. Check your connection and try again.');
      setBusy(false);
    }
  }

  return (
    <header className="acct-header">
      <div className="container acct-header__inner">
        <div>
          <p className="eyebrow">{eyebrow}</p>
          <h1 className="acct-header__title">{title}</h1>
          <p className="lead acct-header__lead">{lead}</p>
        </div>
        <div className="acct-header__session">
          <span className="acct-header__who">
            Signed in as <strong>{auth.me.profile.email}</strong>
          </span>
          <button type="button" className="button button--secondary" onClick={() => void signOut()} disabled={busy} data-testid="portal-header-sign-out">
            {busy ? 'Signing out…' : 'Sign out'}
          </button>
          {error && (
            <p role="alert" className="acct-header__error">
              {error}
            </p>
          )}
        </div>
      </div>
    </header>
  );
}
