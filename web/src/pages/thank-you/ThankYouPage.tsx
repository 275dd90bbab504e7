import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { recordConversion, type ConversionType } from '../../api/events';
import { confirmWaitlist } from '../../api/waitlist';
import { CONFIRMATION_MESSAGES } from '../../../../events/founding-values';
import { BRAND_NAME, LAUNCH_YEAR } from '../../brand';
import { useConfig } from '../../config';
import { Icon } from '../../components/Icon';
import { IconList } from '../../components/IconList';
import { usePageTitle } from '../../lib/usePageTitle';
import { NotFoundContent } from '../../components/NotFoundContent';
import { ConfirmApplicationPage } from './ConfirmApplicationPage';
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
  /** Set by the form: the place is taken when the emailed link is followed. */
  confirmationSent?: boolean;
}

/** The token of a confirmation link, carried in the fragment (`#confirm=...`) so no server logs it. */
function confirmationToken(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('confirm');
}

function readPosition(state: unknown, query: string | null): number | null {
  const fromState = (state as WaitlistNavState | null)?.position;
  if (typeof fromState === 'number' && Number.isInteger(fromState) && fromState > 0) return fromState;
  const fromQuery = Number(query);
  return Number.isInteger(fromQuery) && fromQuery > 0 ? fromQuery : null;
}

/** /thank-you?type=waitlist|founding-model|founding-confirm (docs/product.md#thank-you). */
export function ThankYouPage() {
  const [params] = useSearchParams();
  const variant = thankYouVariant(params.get('type'));
  const { apiUrl } = useConfig();

  // Record the conversion once per page view; fire-and-forget (StrictMode runs effects twice in dev).
  // Following a confirmation link is the same signup, not a new conversion.
  const recorded = useRef(false);
  useEffect(() => {
    if (!variant || recorded.current || confirmationToken(window.location.hash)) return;
    recorded.current = true;
    recordConversion(apiUrl, variant);
  }, [apiUrl, variant]);

  if (variant === 'waitlist') return <WaitlistThanks position={params.get('position')} />;
  if (variant === 'founding-model') return <FoundingThanks />;
  // The founding application's confirmation link (docs/product.md#founding-confirmation): not a conversion.
  if (params.get('type') === 'founding-confirm') return <ConfirmApplicationPage />;
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

/**
 * Follows a confirmation link (docs/product.md#waitlist-abuse): posts its token once, then
 * shows the place as `?type=waitlist&position=N` (the token leaves the address bar).
 */
function useConfirmation(token: string | null): { confirming: boolean; error: string | null } {
  const { apiUrl } = useConfig();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const posted = useRef(false);
  useEffect(() => {
    if (!token || posted.current) return;
    posted.current = true;
    confirmWaitlist(apiUrl, token).then(
      (result) =>
        navigate(`/thank-you?type=waitlist&position=${result.position}`, {
          replace: true,
          state: { position: result.position, alreadySignedUp: result.alreadySignedUp },
        }),
      (err: unknown) => setError(err instanceof Error && err.message ? err.message : 'We could not confirm your place. Please try again.'),
    );
  }, [apiUrl, navigate, token]);
  return { confirming: token !== null && error === null, error };
}

function WaitlistThanks({ position: positionParam }: { position: string | null }) {
  const location = useLocation();
  const { confirming, error } = useConfirmation(confirmationToken(location.hash));
  const position = readPosition(location.state, positionParam);
  const alreadySignedUp = (location.state as WaitlistNavState | null)?.alreadySignedUp === true;
  const awaitingEmail = position === null && (location.state as WaitlistNavState | null)?.confirmationSent === true;
  usePageTitle(awaitingEmail || confirming || error ? 'Confirm your email' : "You're on the list");

  if (confirming || error) {
    return (
      <div className="container ty">
        <Hero title={error ? 'We could not confirm your place' : 'Confirming your place...'}>
          {error ? (
            <>
              <p className="lead" role="alert" data-testid="waitlist-confirm-error">
                {error}
              </p>
              <Link to="/first-200#signup-form" className="button button--primary">
                Back to the waitlist <Icon name="arrowRight" size={18} className="button__arrow" />
              </Link>
            </>
          ) : (
            <p className="lead" role="status">
              One moment while we save your spot.
            </p>
          )}
        </Hero>
        <ContactLine />
      </div>
    );
  }

  const share: ShareContent = {
    url: `${window.location.origin}/first-200`,
    text: `I just joined the ${BRAND_NAME} waitlist: commercially licensed AI images of real people who consented and get paid. The first 100 on the list get beta access, so grab a spot:`,
    emailSubject: `Join me on the ${BRAND_NAME} waitlist`,
  };

  return (
    <div className="container ty">
      {awaitingEmail ? (
        <Hero title="Check your inbox">
          <p className="lead" data-testid="waitlist-check-inbox">
            We sent you an email. Follow the link in it to confirm your address: that saves your spot on the early-access
            list for {BRAND_NAME} and shows your number. If it has not arrived in a few minutes, look in your spam folder.
          </p>
        </Hero>
      ) : (
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
      )}

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
        <p className="ty-notice" data-testid="confirm-email-notice">
          {CONFIRMATION_MESSAGES.checkEmail}
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
              title: 'Confirm your email address',
              body: `${CONFIRMATION_MESSAGES.checkEmail} If it has not arrived in a few minutes, look in your spam folder.`,
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
