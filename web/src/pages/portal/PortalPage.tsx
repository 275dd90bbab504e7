import { Link } from 'react-router';
import { BRAND_NAME, LAUNCH_YEAR } from '../../brand';
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

/** /portal: where "Sign in" leads (docs/product.md#portal). */
export function PortalPage() {
  usePageTitle('Sign in');

  return (
    <div className="portal" data-testid="portal-page">
      <section className="page-hero" aria-labelledby="portal-title">
        <div className="container page-hero__inner">
          <p className="eyebrow">Sign in</p>
          <h1 id="portal-title">Welcome to {BRAND_NAME}</h1>
          <p className="lead">Choose your portal to continue.</p>
        </div>
      </section>
      <section className="container portal__cards" aria-label="Portals">
        {PORTALS.map((portal, i) => (
          <article key={portal.to} className={`card link-card portal-card ${i === 1 ? 'portal-card--plum' : ''}`} data-testid={portal.testId}>
            <span className={`icon-badge ${i === 1 ? 'icon-badge--plum' : ''}`} aria-hidden="true">
              <Icon name={portal.icon} />
            </span>
            <h2 className="link-card__title">
              <Link to={portal.to} className="link-card__link">
                {portal.title}
              </Link>
            </h2>
            <p>{portal.body}</p>
            <span className="link-card__cta" aria-hidden="true">
              {portal.cta} <Icon name="arrowRight" size={18} className="button__arrow" />
            </span>
          </article>
        ))}
      </section>
      <p className="container portal__note">
        New here? <Link to="/talent-application">Become {BRAND_NAME} Talent</Link> or{' '}
        <Link to="/pricing">see pricing for creators</Link>. Portals open at launch in {LAUNCH_YEAR}.
      </p>
    </div>
  );
}

interface PortalPlaceholderProps {
  kind: 'client' | 'talent';
}

const PLACEHOLDER = {
  client: {
    title: 'Client Portal',
    body: 'This is where brands, creators and agencies will generate licensed images, manage credits and download their work.',
    cta: { to: '/first-200', label: 'Join the early-access waitlist' },
  },
  talent: {
    title: 'Talent Portal',
    body: 'This is where talent will manage their likeness, see how it is used and follow their monthly royalties.',
    cta: { to: '/founding-talent-application', label: 'Apply as founding talent' },
  },
} as const;

/** /client-portal and /talent-portal: until accounts exist, say when the portal opens. */
export function PortalPlaceholderPage({ kind }: PortalPlaceholderProps) {
  const content = PLACEHOLDER[kind];
  usePageTitle(content.title);

  return (
    <div className="container portal-placeholder" data-testid={`${kind}-portal-page`}>
      <Link to="/portal" className="back-link">
        <span aria-hidden="true">←</span> Back to portal choice
      </Link>
      <div className="card portal-placeholder__card">
        <span className={`icon-badge ${kind === 'talent' ? 'icon-badge--plum' : ''}`} aria-hidden="true">
          <Icon name="calendar" />
        </span>
        <h1>{content.title}</h1>
        <p className="pill portal-placeholder__pill" data-testid="portal-opens">
          <span className="pill__dot" aria-hidden="true" />
          Opens at launch in {LAUNCH_YEAR}
        </p>
        <p className="lead">
          The {content.title.toLowerCase()} opens when {BRAND_NAME} launches in {LAUNCH_YEAR}; accounts and sign-in come
          then. {content.body}
        </p>
        <div className="portal-placeholder__actions">
          <Link to={content.cta.to} className="button button--primary">
            {content.cta.label} <Icon name="arrowRight" size={18} className="button__arrow" />
          </Link>
        </div>
      </div>
    </div>
  );
}
