import { Link } from 'react-router';
import { BRAND_NAME, MAIN_TAGLINE } from '../../brand';
import { CaptionedSlide, Carousel, type CarouselSlide } from '../../components/Carousel';
import { DemoWidget } from '../../components/demo/DemoWidget';
import {
  SAMPLE_TALENTS,
  TALENT_IMAGE_HEIGHT,
  TALENT_IMAGE_WIDTH,
  formatCount,
  talentImageUrl,
} from '../../components/demo/sampleTalents';
import { Hero, HeroActions, HeroPoints } from '../../components/Hero';
import { Icon } from '../../components/Icon';
import { IconCards } from '../../components/IconCards';
import { RotatingWord, RotationToggle, useRotatingWord } from '../../components/RotatingWord';
import { usePageTitle } from '../../lib/usePageTitle';
import {
  CAROUSEL_SCENES,
  HOME_CAROUSEL_INTERVAL_MS,
  HOME_WORDS,
  HOME_WORD_INTERVAL_MS,
  HOW_IT_WORKS,
  WHY_DIFFERENT,
} from './homeContent';
import { SceneIllustration } from './SceneIllustration';
import './HomePage.css';

const SLIDES: CarouselSlide[] = CAROUSEL_SCENES.map((scene) => ({
  id: scene.kind,
  content: <CaptionedSlide className="home-slide" media={<SceneIllustration kind={scene.kind} />} title={scene.title} text={scene.body} />,
}));

/** The main home (docs/product.md#home): /home-preview before launch, / after. */
export function HomePage() {
  usePageTitle(MAIN_TAGLINE);
  const rotation = useRotatingWord(HOME_WORDS, HOME_WORD_INTERVAL_MS);

  return (
    <div className="home" data-testid="home-page">
      <Hero
        titleId="home-title"
        className="home-hero"
        art={
          <Carousel
            label={`What creators make with ${BRAND_NAME}`}
            slides={SLIDES}
            intervalMs={HOME_CAROUSEL_INTERVAL_MS}
            className="home-hero__carousel"
          />
        }
      >
        <p className="pill home-hero__tagline" data-testid="hero-tagline">
          <span className="pill__dot" aria-hidden="true" />
          {MAIN_TAGLINE}
        </p>
        <div className="home-hero__headline" {...rotation.pauseHandlers}>
          <h1 id="home-title" className="home-hero__title">
            Ethical AI for <RotatingWord state={rotation} className="gradient-text" />
          </h1>
          <RotationToggle state={rotation} />
        </div>
        <p className="lead home-hero__lead">
          {BRAND_NAME} is the marketplace for AI images of real people who said yes. Talent license their likeness and
          earn royalties; creators make commercially licensed images they can stand behind.
        </p>
        <HeroActions>
          <Link to="/talent-application" className="button button--primary" data-testid="cta-talent-application">
            Become {BRAND_NAME} Talent <Icon name="arrowRight" size={18} className="button__arrow" />
          </Link>
          <Link to="/create" className="button button--secondary" data-testid="cta-create">
            Create Ethical Content
          </Link>
        </HeroActions>
        <HeroPoints
          points={[
            { icon: 'shield', text: 'Consent first' },
            { icon: 'coins', text: 'Fair pay' },
            { icon: 'license', text: 'Licensed for commercial use' },
          ]}
        />
      </Hero>

      <section className="section" aria-labelledby="featured-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">Featured talent</p>
            <h2 id="featured-title">Real people, licensed with consent</h2>
            <p>Every face in our library belongs to a person who applied, agreed to the terms and earns from every image.</p>
          </div>
          <ul className="talent-grid" data-testid="featured-talent">
            {SAMPLE_TALENTS.map((talent) => (
              <li key={talent.id} className="card talent-card" data-testid="featured-talent-card">
                <img
                  src={talentImageUrl(talent.id)}
                  alt=""
                  width={TALENT_IMAGE_WIDTH}
                  height={TALENT_IMAGE_HEIGHT}
                  loading="lazy"
                  className="talent-card__image"
                />
                <div className="talent-card__body">
                  <h3 className="talent-card__name">
                    <Link to={`/talent/${talent.id}`} className="talent-card__link">
                      {talent.name}
                    </Link>
                  </h3>
                  <p className="talent-card__tagline">{talent.tagline}</p>
                  <ul className="talent-card__tags" aria-label="Tags">
                    {talent.tags.slice(0, 3).map((tag) => (
                      <li key={tag}>{tag}</li>
                    ))}
                  </ul>
                  <p className="talent-card__count">
                    <Icon name="sparkles" size={16} />
                    <span>
                      <strong>{formatCount(talent.generations)}</strong> generations
                    </span>
                  </p>
                </div>
              </li>
            ))}
          </ul>
          <p className="home__more">
            <Link to="/talent" className="button button--secondary" data-testid="cta-talent-library">
              Browse the Talent Library <Icon name="arrowRight" size={18} className="button__arrow" />
            </Link>
          </p>
        </div>
      </section>

      <section className="section section--muted" aria-labelledby="how-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">How it works</p>
            <h2 id="how-title">From your likeness to your royalties in four steps</h2>
          </div>
          <IconCards items={HOW_IT_WORKS} className="home-steps" numbered="plum" plumBadge={() => true} data-testid="how-it-works" />
        </div>
      </section>

      <section className="section" aria-labelledby="demo-title">
        <div className="container home-demo">
          <div className="section__header">
            <p className="eyebrow">Try it</p>
            <h2 id="demo-title">See how a licensed image is made</h2>
            <p>Pick a sample talent, choose a style and generate. It takes a few seconds and nothing leaves your browser.</p>
          </div>
          <DemoWidget ctaLabel="Get started" />
        </div>
      </section>

      <section className="section section--muted" aria-labelledby="why-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">Why {BRAND_NAME} is different</p>
            <h2 id="why-title">AI built with people, not scraped from them</h2>
          </div>
          <IconCards items={WHY_DIFFERENT} className="why-grid" itemClassName={() => 'why-card'} data-testid="why-different" />
          <p className="home__more">
            <Link to="/ethos" className="button button--ghost" data-testid="cta-ethos">
              Read why {BRAND_NAME} exists <Icon name="arrowRight" size={18} className="button__arrow" />
            </Link>
          </p>
        </div>
      </section>

      <section id="signup-form" className="section" aria-labelledby="start-title">
        <div className="container">
          <div className="cta-band">
            <div className="cta-band__copy">
              <h2 id="start-title">Get started with {BRAND_NAME}</h2>
              <p>Whether you want to be seen or want to create, it starts with you.</p>
            </div>
            <div className="cta-band__options">
              <Link to="/talent-application" className="cta-option">
                <span className="cta-option__icon" aria-hidden="true">
                  <Icon name="heart" />
                </span>
                <span className="cta-option__text">
                  <strong>Become {BRAND_NAME} Talent</strong>
                  <span>License your likeness and earn 20% to 30% royalties, paid monthly.</span>
                </span>
                <Icon name="arrowRight" size={20} className="cta-option__arrow" />
              </Link>
              <Link to="/create" className="cta-option">
                <span className="cta-option__icon" aria-hidden="true">
                  <Icon name="sparkles" />
                </span>
                <span className="cta-option__text">
                  <strong>Create Ethical Content</strong>
                  <span>Generate commercially licensed images of real, consenting people.</span>
                </span>
                <Icon name="arrowRight" size={20} className="cta-option__arrow" />
              </Link>
            </div>
          </div>
        </div>
      </section>
    </div>
  );
}
