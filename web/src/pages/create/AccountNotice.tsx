import { Link } from 'react-router';
import { signInPath } from '../../auth/next-path';
import type { AuthContextValue } from '../../auth/types';
import { Icon } from '../../components/Icon';

/** Who may generate: signed out (sign in, the typed prompt is kept), a talent account, loading. */
export function AccountNotice({ auth, nextPath }: { auth: AuthContextValue; nextPath: string | undefined }) {
  if (auth.loading || (auth.user && !auth.me && !auth.error)) {
    return (
      <p className="card create-notice" role="status">
        Loading your account…
      </p>
    );
  }
  if (!auth.user) {
    return (
      <div className="card create-notice" data-testid="create-signed-out">
        <Icon name="users" size={22} />
        <div>
          <p className="create-notice__title">Generating images needs a client account</p>
          <p>Sign in or create a free client account (10 credits to start). What you type here is kept while you sign in.</p>
          <div className="create-notice__actions">
            <Link to={signInPath(nextPath)} className="button button--primary">
              Sign in
            </Link>
            <Link to={nextPath ? `/sign-up?next=${encodeURIComponent(nextPath)}` : '/sign-up'} className="button button--secondary">
              Create an account
            </Link>
          </div>
        </div>
      </div>
    );
  }
  if (!auth.me) {
    return (
      <div className="card create-notice" role="alert">
        <p>{auth.error}</p>
        <button type="button" className="button button--secondary" onClick={() => void auth.refresh()}>
          Try again
        </button>
      </div>
    );
  }
  if (auth.me.role === 'client') {
    return (
      <p className="create-who" data-testid="create-signed-in">
        Signed in as <strong>{auth.me.profile.email}</strong> · <Link to="/client-portal">Client portal</Link>
      </p>
    );
  }
  return (
    <div className="card create-notice" data-testid="create-talent-account">
      <Icon name="heart" size={22} />
      <div>
        <p className="create-notice__title">Generating images is for client accounts</p>
        <p>
          You are signed in with a talent account. Clients generate images with your likeness; you see them in your talent
          portal.
        </p>
        <div className="create-notice__actions">
          <Link to="/talent-portal" className="button button--secondary">
            Go to the talent portal
          </Link>
        </div>
      </div>
    </div>
  );
}
