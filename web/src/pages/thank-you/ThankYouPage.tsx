import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { recordConversion, type ConversionType } from '../../api/events';
import { BRAND_NAME, LAUNCH_YEAR } from '../../brand';
import { useConfig } from '../../config';
import { Icon } from '../../components/Icon';
import { IconList } from '../../components/IconList';
import { usePageTitle } from '../../lib/usePageTitle';
import { NotFoundContent } from '../../components/NotFoundContent';
import { SharePanel, type ShareContent } from './SharePanel';
import './ThankYouPage.css';

/** `type=first-200` is what the original waitlist sent; it is accepted as an alias (docs/product.md#reading-thank-you). */
function thankYouVariant(type: string | null): ConversionType | null {
  if (type === 'waitlist' || type === 'first-200') return 'waitlist';
  if (type === 'founding-model') return 'founding-model';
  return null;
}

interface WaitlistNavState {
  position?: number;
  alreadySignedUp?: boolean;
}

function readPosition(state: unknown, query: string | null): number | null {
  const fromState = (state as WaitlistNavState | null)?.position;
  if (typeof fromState === 'number' && Number.isInteger(fromState) && fromState > 0) return fromState;
  const fromQuery = Number(query);
  return Number.isInteger(fromQuery) && fromQuery > 0 ? fromQuery : null;
}

/** /thank-you?type=waitlist|founding-model (docs/product.md#thank-you). */
export function ThankYouPage() {
  const [params] = useSearchParams();
  const variant = thankYouVariant(params.get('type'));
  const { apiUrl } = useConfig();

  // Record the conversion once per page view; fire-and-forget (StrictMode runs effects twice in dev).
  const recorded = useRef(false);
  useEffect(() => {
    if (!variant || recorded.current) return;
    recorded.current = true;
    recordConversion(apiUrl, variant);
  }, [apiUrl, variant]);

  if (variant === 'waitlist') return <WaitlistThanks position={params.get('position')} />;
  if (variant === 'founding-model') return <FoundingThanks />;
  return <NotFoundContent />;
}

function ContactLine() {
  const { contactEmail } = useConfig();
  return (
    <p className="ty-contact" data-testid="contact-email">
      Questions? Email us at <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
    </p>
  );
}

function Hero({ title, children }: { title: string; children: ReactNode }) {
  return (
    <header className="ty-hero">
      <span className="badge-circle ty-hero__badge" aria-hidden="true">
        <Icon name="check" size={36} />
      </span>
      <h1>{title}</h1>
      {children}
    </header>
  );
}

function WaitlistThanks({ position: positionParam }: { position: string | null }) {
  const location = useLocation();
  const position = readPosition(location.state, positionParam);
  const alreadySignedUp = (location.state as WaitlistNavState | null)?.alreadySignedUp === true;
  usePageTitle("You're on the list");

  const share: ShareContent = {
    url: `${window.location.origin}/first-200`,
    text: `I just joined the ${BRAND_NAME} waitlist: commercially licensed AI images of real people who consented and get paid. The first 100 on the list get beta access, so grab a spot:`,
    emailSubject: `Join me on the ${BRAND_NAME} waitlist`,
  };

  return (
    <div className="container ty">
      <Hero title={alreadySignedUp ? "You're already on the list" : 'Welcome to the First 200!'}>
        {position !== null && (
          <p className="ty-position" data-testid="waitlist-position">
            You're <strong>#{position}</strong> on the list
          </p>
        )}
        <p className="lead">
          {alreadySignedUp
            ? 'Good news: your spot was already saved, and it still is.'
            : `Your spot is saved. You are on the early-access list for ${BRAND_NAME}, launching ${LAUNCH_YEAR}.`}
        </p>
      </Hero>

      <div className="ty-grid">
        <section className="card" aria-labelledby="ty-next-title">
          <h2 id="ty-next-title" className="ty-card-title">
            What happens next
          </h2>
          <IconList
            steps
            items={[
              { icon: 'bell', title: 'Watch your inbox', body: 'We will email you when there is news worth sharing, and when your access is ready.' },
              { icon: 'rocket', title: 'Beta invitations', body: 'The first 100 on the list are invited into the beta before launch, in the order they joined.' },
              { icon: 'sparkles', title: 'Start creating', body: 'Choose real, consenting talent and create commercially licensed images from day one.' },
            ]}
          />
        </section>

        <section className="card ty-founding" aria-labelledby="ty-founding-title">
          <span className="icon-badge icon-badge--plum" aria-hidden="true">
            <Icon name="heart" />
          </span>
          <h2 id="ty-founding-title" className="ty-card-title">
            Want to be in front of the camera?
          </h2>
          <p>
            Founding Talent license their likeness and earn 35% royalties for life. Only 30 spots, and only before
            launch. Applying is free.
          </p>
          <Link to="/founding-talent-application" className="button button--primary">
            Apply as Founding Model <Icon name="arrowRight" size={18} className="button__arrow" />
          </Link>
        </section>
      </div>

      <SharePanel
        content={share}
        title="Spread the word"
        intro="Know a creator, brand or agency who would love this? Share the waitlist. The first 100 get beta access."
      />
      <ContactLine />
    </div>
  );
}

function FoundingThanks() {
  usePageTitle('Thank you for applying');
  // The application form passes on what the applicant must still know, e.g. no confirmation email.
  const notice = (useLocation().state as { notice?: string } | null)?.notice;

  const share: ShareContent = {
    url: `${window.location.origin}/founding-talent-application`,
    text: `I just applied to be Founding Talent at ${BRAND_NAME}: license your likeness with consent and earn 35% royalties for life. Only 30 founding spots before launch:`,
    emailSubject: `Become Founding Talent at ${BRAND_NAME}`,
  };

  return (
    <div className="container ty">
      <Hero title="Thank You for Applying">
        <p className="lead">
          Your founding talent application is in. Thank you for helping build AI that puts people first.
        </p>
        {typeof notice === 'string' && (
          <p className="ty-notice" role="alert" data-testid="thank-you-notice">
            {notice}
          </p>
        )}
      </Hero>

      <section className="card ty-single" aria-labelledby="ty-next-title">
        <h2 id="ty-next-title" className="ty-card-title">
          What happens next
        </h2>
        <IconList
          steps
          items={[
            {
              icon: 'mail',
              title: 'Check your inbox',
              body: 'A confirmation email is on its way. If it has not arrived in a few minutes, look in your spam folder.',
            },
            {
              icon: 'calendar',
              title: 'We review your application',
              body: 'Our team reviews your details and photos within 15-20 business days (about 3 weeks).',
            },
            {
              icon: 'star',
              title: 'Lock in 35% for life',
              body: `If you are accepted, you secure the founding 35% royalty rate for life and join our founding member community. The talent portal opens at launch in ${LAUNCH_YEAR}.`,
            },
          ]}
        />
      </section>

      <SharePanel
        content={share}
        title="Know someone who should apply?"
        intro="There are only 30 founding spots. Share the application with people who would make great founding talent."
      />
      <ContactLine />
    </div>
  );
}
