import { Link } from 'react-router';
import { BRAND_NAME, LAUNCH_YEAR, PRELAUNCH_TAGLINE } from '../brand';
import { Icon } from '../components/Icon';
import { RotatingWord, RotationToggle, useRotatingWord } from '../components/RotatingWord';
import { usePageTitle } from '../lib/usePageTitle';
import './PreLaunchLandingPage.css';

/** The pre-launch landing (docs/product.md#prelaunch-landing). */
const LANDING_WORDS = ['you', 'creators', 'talent', 'artists', 'innovators', 'storytellers'] as const;
const LANDING_WORD_INTERVAL_MS = 2500;

export function PreLaunchLandingPage() {
  usePageTitle();
  const rotation = useRotatingWord(LANDING_WORDS, LANDING_WORD_INTERVAL_MS);

  return (
    <div className="landing" data-testid="prelaunch-landing">
      <section className="landing__hero" aria-labelledby="landing-title">
        <div className="container landing__hero-inner">
          <p className="pill landing__banner" data-testid="launch-banner">
            <span className="pill__dot" aria-hidden="true" />
            Launching {LAUNCH_YEAR}
          </p>

          {/* Hovering the headline or focusing its pause button holds the word still. */}
          <div className="landing__headline" {...rotation.pauseHandlers}>
            <h1 id="landing-title" className="landing__title">
              It begins with <RotatingWord state={rotation} className="gradient-text" />
            </h1>
            <RotationToggle state={rotation} />
          </div>

          <p className="landing__tagline">{PRELAUNCH_TAGLINE}</p>
          <p className="lead landing__intro">
            {BRAND_NAME} is an ethical AI image marketplace. Real people license their likeness with consent and earn
            royalties. Creators make commercially licensed images they can stand behind.
          </p>

          <div className="landing__cards">
            <article className="card link-card landing-card" data-testid="landing-card-creator">
              <span className="icon-badge" aria-hidden="true">
                <Icon name="sparkles" />
              </span>
              <h2 className="link-card__title">
                <Link to="/first-200" className="link-card__link">
                  Join as Creator
                </Link>
              </h2>
              <p>Lock in early access to licensed, consent-first AI images of real people. Only 200 early spots.</p>
              <span className="link-card__cta" aria-hidden="true">
                Join the waitlist <Icon name="arrowRight" size={18} className="button__arrow" />
              </span>
            </article>

            <article className="card link-card landing-card landing-card--plum" data-testid="landing-card-talent">
              <span className="icon-badge icon-badge--plum" aria-hidden="true">
                <Icon name="heart" />
              </span>
              <h2 className="link-card__title">
                <Link to="/founding-talent-application" className="link-card__link">
                  Join as Talent
                </Link>
              </h2>
              <p>Earn the highest royalties on your likeness: 35% for life, only available before launch.</p>
              <span className="link-card__cta" aria-hidden="true">
                Apply as founding talent <Icon name="arrowRight" size={18} className="button__arrow" />
              </span>
            </article>
          </div>

          <ul className="landing__values" aria-label="What we stand for">
            <li>
              <Icon name="shield" size={20} /> Consent first
            </li>
            <li>
              <Icon name="coins" size={20} /> Fair pay
            </li>
            <li>
              <Icon name="search" size={20} /> Transparency
            </li>
            <li>
              <Icon name="users" size={20} /> Human-centered
            </li>
          </ul>
        </div>
      </section>
    </div>
  );
}
