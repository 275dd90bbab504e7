import { Link } from 'react-router';
import { signInPath } from '../../auth/next-path';
import { useAuth } from '../../auth/useAuth';
import { BRAND_NAME } from '../../brand';
import { Icon, type IconName } from '../../components/Icon';
import { usePageTitle } from '../../lib/usePageTitle';
import './PortalPage.css';

const PORTALS: readonly { to: string; title: string; body: string; cta: string; icon: IconName; testId: string }[] = [
  {
    to: '/client-portal',
    title: 'Client Portal',
    body: 'For brands, creators and agencies: generate licensed images, manage your credits and download your work.',
    cta: 'Go to the client portal',
    icon: 'sparkles',
    testId: 'portal-card-client',
  },
  {
    to: '/talent-portal',
    title: 'Talent Portal',
    body: 'For talent: manage your likeness, see how it is used and track the royalties you earn each month.',
    cta: 'Go to the talent portal',
    icon: 'heart',
    testId: 'portal-card-talent',
  },
];

/** /portal: where "Sign in" leads (docs/product.md#portal): the two portals, and who is signed in. */
export function PortalPage() {
  usePageTitle('Sign in');
  const auth = useAuth();
  const signedIn = Boolean(auth.user);
  const name = auth.profile?.full_name || auth.user?.email;

  return (
    <div className="portal" data-testid="portal-page">
      <section className="page-hero" aria-labelledby="portal-title">
        <div className="container page-hero__inner">
          <p className="eyebrow">{signedIn ? 'Your portals' : 'Sign in'}</p>
          <h1 id="portal-title">Welcome to {BRAND_NAME}</h1>
          {signedIn ? (
            <div className="portal__account" data-testid="portal-signed-in">
              <p className="lead">
                Signed in as <strong>{name}</strong>
                {name !== auth.user?.email && <span className="portal__email"> ({auth.user?.email})</span>}.
              </p>
              <button type="button" className="button button--secondary" onClick={() => void auth.signOut()} data-testid="portal-sign-out">
                Sign out
              </button>
            </div>
          ) : (
            <p className="lead">Choose your portal to continue.</p>
          )}
        </div>
      </section>
      <section className="container portal__cards" aria-label="Portals" aria-busy={auth.loading || undefined}>
        {PORTALS.map((portal, i) => (
          <article key={portal.to} className={`card link-card portal-card ${i === 1 ? 'portal-card--plum' : ''}`} data-testid={portal.testId}>
            <span className={`icon-badge ${i === 1 ? 'icon-badge--plum' : ''}`} aria-hidden="true">
              <Icon name={portal.icon} />
            </span>
            <h2 className="link-card__title">
              <Link to={signedIn ? portal.to : signInPath(portal.to)} className="link-card__link">
                {portal.title}
              </Link>
            </h2>
            <p>{portal.body}</p>
            <span className="link-card__cta" aria-hidden="true">
              {signedIn ? portal.cta : 'Sign in'} <Icon name="arrowRight" size={18} className="button__arrow" />
            </span>
          </article>
        ))}
      </section>
      {!signedIn && !auth.loading && (
        <p className="container portal__note">
          New here? <Link to="/sign-up" data-testid="portal-create-account">Create an account</Link>, as a client or as talent. Want to be featured?{' '}
          <Link to="/talent-application">Become {BRAND_NAME} Talent</Link>.
        </p>
      )}
    </div>
  );
}
