import { Link } from 'react-router';
import { LIMITS } from '../../lib/application/limits';
import { BRAND_NAME, LAUNCH_YEAR } from '../../brand';
import { Carousel, type CarouselSlide } from '../../components/Carousel';
import { SAMPLE_TALENTS, TALENT_IMAGE_HEIGHT, TALENT_IMAGE_WIDTH, formatCount, talentImageUrl } from '../../components/demo/sampleTalents';
import { Icon } from '../../components/Icon';
import { RotatingWord, RotationToggle, useRotatingWord } from '../../components/RotatingWord';
import { useConfig } from '../../config';
import { usePageTitle } from '../../lib/usePageTitle';
import { DeferredDemo } from './DeferredDemo';
import { FoundingApplicationForm } from './FoundingApplicationForm';
import {
  BENEFITS,
  FOUNDING_CAROUSEL_INTERVAL_MS,
  FOUNDING_FAQ,
  FOUNDING_WORDS,
  FOUNDING_WORD_INTERVAL_MS,
  NEXT,
  STEPS,
} from './foundingContent';
import { spotsText, useFoundingSpots } from './useFoundingSpots';
import '../waitlist/WaitlistPage.css';
import '../talent-application/TalentApplicationPage.css';
import './FoundingApplicationPage.css';

const SLIDES: CarouselSlide[] = SAMPLE_TALENTS.map((talent) => ({
  id: talent.id,
  content: (
    <figure className="founding-slide">
      <img src={talentImageUrl(talent.id)} alt="" width={TALENT_IMAGE_WIDTH} height={TALENT_IMAGE_HEIGHT} className="founding-slide__image" />
      <figcaption className="founding-slide__caption">
        <strong>{talent.name}</strong>
        <span>
          {talent.specialty} · {formatCount(talent.generations)} licensed images
        </span>
      </figcaption>
    </figure>
  ),
}));

/** /founding-talent-application (spec section 2, founding talent application page). */
export function FoundingTalentApplicationPage() {
  usePageTitle('Become Founding Talent');
  const { apiUrl } = useConfig();
  const spots = useFoundingSpots(apiUrl);
  const rotation = useRotatingWord(FOUNDING_WORDS, FOUNDING_WORD_INTERVAL_MS);

  return (
    <div className="founding" data-testid="founding-page">
      <div className="waitlist__banner founding__banner" role="note" aria-label="Announcement">
        <div className="container waitlist__banner-inner">
          <Icon name="star" size={18} />
          <span>
            <strong>Founding Talent: {LIMITS.royaltyPercent}% royalties for life.</strong> Only {LIMITS.spots} spots, only
            before launch
            {spots ? (
              <span className="founding__spots" data-testid="spots-left-banner">
                {' '}
                · {spotsText(spots)}
              </span>
            ) : (
              // Holds the count's place while it loads (or if it never does), so the page below does not move.
              <span className="founding__spots founding__spots--pending" aria-hidden="true">
                {' '}
                · {spotsText({ total: LIMITS.spots, taken: 0, left: LIMITS.spots })}
              </span>
            )}
          </span>
          <Link to={{ hash: 'application-form' }} className="waitlist__banner-link" data-testid="banner-apply">
            Apply now
          </Link>
        </div>
      </div>

      <section className="waitlist-hero founding-hero" aria-labelledby="founding-title">
        <div className="container waitlist-hero__inner">
          <div className="waitlist-hero__copy">
            <p className="eyebrow">Founding Talent · Launching {LAUNCH_YEAR}</p>
            <div className="founding-hero__headline" {...rotation.pauseHandlers}>
              <h1 id="founding-title">
                Royalties for life from your <RotatingWord state={rotation} className="gradient-text" />
              </h1>
              <RotationToggle state={rotation} />
            </div>
            <p className="lead">
              Become one of {BRAND_NAME}'s first {LIMITS.spots} Founding Talent. License your likeness with consent, earn{' '}
              {LIMITS.royaltyPercent}% royalties for life, and help build AI that pays the people behind it.
            </p>
            <div className="waitlist-hero__actions">
              <Link to={{ hash: 'application-form' }} className="button button--primary">
                Apply now <Icon name="arrowRight" size={18} className="button__arrow" />
              </Link>
              <Link to={{ hash: 'why-join' }} className="button button--secondary" data-testid="learn-more">
                Learn more
              </Link>
            </div>
            <ul className="waitlist-hero__points">
              <li>
                <Icon name="check" size={18} /> Free to apply
              </li>
              <li>
                <Icon name="check" size={18} /> {LIMITS.royaltyPercent}% for life
              </li>
              <li>
                <Icon name="check" size={18} /> Paid monthly
              </li>
            </ul>
          </div>
          <Carousel label="Talent already on the platform" slides={SLIDES} intervalMs={FOUNDING_CAROUSEL_INTERVAL_MS} className="founding-hero__carousel" />
        </div>
      </section>

      <section id="why-join" className="section" aria-labelledby="why-join-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">Why join now</p>
            <h2 id="why-join-title">The best terms we will ever offer</h2>
            <p>Founding spots exist only before launch. After that, talent join on the standard royalty tiers.</p>
          </div>
          <ul className="founding-benefits" data-testid="founding-benefits">
            {BENEFITS.map((b, i) => (
              <li key={b.title} className={`card feature-card founding-benefit${i === 0 ? ' founding-benefit--lead' : ''}`}>
                <span className={`icon-badge${i === 0 ? '' : ' icon-badge--plum'}`} aria-hidden="true">
                  <Icon name={b.icon} />
                </span>
                <h3>{b.title}</h3>
                <p>{b.body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="how-it-will-work" className="section section--muted" aria-labelledby="demo-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">How it will work</p>
            <h2 id="demo-title">See your likeness licensed, step by step</h2>
            <p>Try it with one of our sample talent: this is what a brand does when they license an image of you.</p>
          </div>
          <DeferredDemo ctaLabel="Apply as founding talent" ctaTargetId="signup-form" />
        </div>
      </section>

      <section id="steps" className="section" aria-labelledby="steps-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">Three steps</p>
            <h2 id="steps-title">From application to royalties</h2>
          </div>
          <ol className="steps" data-testid="founding-steps">
            {STEPS.map((step, i) => (
              <li key={step.title} className="card step">
                <span className="step__number" aria-hidden="true">
                  {i + 1}
                </span>
                <span className="icon-badge icon-badge--plum" aria-hidden="true">
                  <Icon name={step.icon} />
                </span>
                <h3>
                  <span className="sr-only">Step {i + 1}: </span>
                  {step.title}
                </h3>
                <p>{step.body}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section section--muted ta-apply" aria-label="Application">
        <div className="container ta-apply__grid">
          <div id="application-form" className="ta-apply__form">
            <FoundingApplicationForm />
          </div>
          <aside className="card ta-next" aria-labelledby="next-title" data-testid="what-happens-next">
            <h2 id="next-title" className="ta-next__title">
              What Happens Next
            </h2>
            <ol className="ta-next__list">
              {NEXT.map((item) => (
                <li key={item.title}>
                  <span className="ta-next__icon" aria-hidden="true">
                    <Icon name={item.icon} size={20} />
                  </span>
                  <div>
                    <h3>{item.title}</h3>
                    <p>{item.body}</p>
                  </div>
                </li>
              ))}
            </ol>
            <p className="ta-next__guide">
              Get your photos ready: <Link to="/training-image-best-practices-founders">read the photo guide for founders</Link>.
            </p>
          </aside>
        </div>
      </section>

      <section id="faq" className="section" aria-labelledby="faq-title">
        <div className="container faq">
          <div className="section__header">
            <p className="eyebrow">FAQ</p>
            <h2 id="faq-title">Questions, answered</h2>
          </div>
          <div className="faq__list" data-testid="faq">
            {FOUNDING_FAQ.map((item) => (
              <details key={item.question} className="faq__item">
                <summary className="faq__question">
                  <span>{item.question}</span>
                  <svg className="faq__chevron" viewBox="0 0 16 16" width="18" height="18" aria-hidden="true" focusable="false">
                    <path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
                  </svg>
                </summary>
                <p className="faq__answer">{item.answer}</p>
              </details>
            ))}
          </div>
        </div>
      </section>
    </div>
  );
}
