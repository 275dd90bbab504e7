import { Link } from 'react-router';
import { LIMITS } from '../../lib/application/limits';
import { BRAND_NAME, LAUNCH_YEAR } from '../../brand';
import { AnnouncementBanner } from '../../components/AnnouncementBanner';
import { ApplicationSection } from '../../components/application/ApplicationSection';
import { CaptionedSlide, Carousel, type CarouselSlide } from '../../components/Carousel';
import { SAMPLE_TALENTS, TALENT_IMAGE_HEIGHT, TALENT_IMAGE_WIDTH, formatCount, talentImageUrl } from '../../components/demo/sampleTalents';
import { Faq } from '../../components/Faq';
import { Hero, HeroActions, HeroPoints } from '../../components/Hero';
import { Icon } from '../../components/Icon';
import { IconCards } from '../../components/IconCards';
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
import './FoundingApplicationPage.css';

const SLIDES: CarouselSlide[] = SAMPLE_TALENTS.map((talent) => ({
  id: talent.id,
  content: (
    <CaptionedSlide
      className="founding-slide"
      media={<img src={talentImageUrl(talent.id)} alt="" width={TALENT_IMAGE_WIDTH} height={TALENT_IMAGE_HEIGHT} className="founding-slide__image" />}
      title={talent.name}
      text={`${talent.specialty} · ${formatCount(talent.generations)} licensed images`}
    />
  ),
}));

/** /founding-talent-application (docs/product.md#founding-page). */
export function FoundingTalentApplicationPage() {
  usePageTitle('Become Founding Talent');
  const { apiUrl } = useConfig();
  const spots = useFoundingSpots(apiUrl);
  const rotation = useRotatingWord(FOUNDING_WORDS, FOUNDING_WORD_INTERVAL_MS);

  return (
    <div className="founding" data-testid="founding-page">
      <AnnouncementBanner icon="star" linkText="Apply now" target="application-form" linkTestId="banner-apply">
        <strong>Founding Talent: {LIMITS.royaltyPercent}% royalties for life.</strong> Only {LIMITS.spots} spots, only before
        launch
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
      </AnnouncementBanner>

      <Hero
        titleId="founding-title"
        className="founding-hero"
        art={<Carousel label="Talent already on the platform" slides={SLIDES} intervalMs={FOUNDING_CAROUSEL_INTERVAL_MS} className="founding-hero__carousel" />}
      >
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
        <HeroActions>
          <Link to={{ hash: 'application-form' }} className="button button--primary">
            Apply now <Icon name="arrowRight" size={18} className="button__arrow" />
          </Link>
          <Link to={{ hash: 'why-join' }} className="button button--secondary" data-testid="learn-more">
            Learn more
          </Link>
        </HeroActions>
        <HeroPoints points={['Free to apply', `${LIMITS.royaltyPercent}% for life`, 'Paid monthly']} />
      </Hero>

      <section id="why-join" className="section" aria-labelledby="why-join-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">Why join now</p>
            <h2 id="why-join-title">The best terms we will ever offer</h2>
            <p>Founding spots exist only before launch. After that, talent join on the standard royalty tiers.</p>
          </div>
          <IconCards
            items={BENEFITS}
            className="founding-benefits"
            itemClassName={(i) => `founding-benefit${i === 0 ? ' founding-benefit--lead' : ''}`}
            plumBadge={(i) => i > 0}
            data-testid="founding-benefits"
          />
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
          <IconCards items={STEPS} className="icon-cards--three" numbered="plum" stepLabels plumBadge={() => true} data-testid="founding-steps" />
        </div>
      </section>

      <ApplicationSection
        form={<FoundingApplicationForm />}
        next={NEXT}
        nextTitleId="next-title"
        nextFooter={
          <>
            Get your photos ready: <Link to="/training-image-best-practices-founders">read the photo guide for founders</Link>.
          </>
        }
      />

      <Faq items={FOUNDING_FAQ} />
    </div>
  );
}
