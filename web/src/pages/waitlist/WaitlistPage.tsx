import { Link } from 'react-router';
import { BRAND_NAME, LAUNCH_YEAR } from '../../brand';
import { AnnouncementBanner } from '../../components/AnnouncementBanner';
import { Faq } from '../../components/Faq';
import { Hero, HeroActions, HeroPoints } from '../../components/Hero';
import { Icon, type IconName } from '../../components/Icon';
import { IconCards } from '../../components/IconCards';
import { WhatHappensNext } from '../../components/WhatHappensNext';
import { usePageTitle } from '../../lib/usePageTitle';
import { WaitlistSignupForm } from './WaitlistSignupForm';
import { WAITLIST_FAQ } from './waitlistFaq';
import './WaitlistPage.css';

const WHY_CREATE: readonly { icon: IconName; title: string; body: string }[] = [
  {
    icon: 'shield',
    title: 'Real people, real consent',
    body: 'Every likeness belongs to a person who applied, agreed to the terms and can set limits on where they appear.',
  },
  {
    icon: 'license',
    title: 'Commercially licensed',
    body: 'A commercial-use licence comes with every plan, so you can publish without wondering who owns the face.',
  },
  {
    icon: 'coins',
    title: 'Simple credit pricing',
    body: 'One credit buys one image or one second of video. Start free, then pick a monthly plan that fits your volume.',
  },
  {
    icon: 'heart',
    title: 'Talent get paid',
    body: 'Royalties flow back to the people whose likeness you use, every month. Good work that is also fair work.',
  },
];

const HOW_IT_WORKS: readonly { icon: IconName; title: string; body: string }[] = [
  {
    icon: 'users',
    title: 'Choose your talent',
    body: 'Browse a library of real, verified people and pick the face that fits your brand.',
  },
  {
    icon: 'pencil',
    title: 'Describe the shot',
    body: 'Write a prompt and choose a style: photorealistic, portrait, commercial, editorial and more.',
  },
  {
    icon: 'download',
    title: 'Download and publish',
    body: 'Get high-quality images, licensed for commercial use from the moment they are made.',
  },
];

const NEXT: readonly { icon: IconName; title: string; body: string }[] = [
  { icon: 'star', title: 'Your spot is saved', body: 'Confirm the link we email you and you will see your place on the list straight away.' },
  {
    icon: 'bell',
    title: 'We keep you posted',
    body: 'If you opt in, you get occasional product updates and launch news. Nothing more.',
  },
  {
    icon: 'rocket',
    title: 'Your invitation arrives',
    body: 'The first 100 are invited to the beta before launch; everyone on the list gets in ahead of the public.',
  },
];

/** /first-200: the early-access waitlist (docs/product.md#waitlist-page). */
export function WaitlistPage() {
  usePageTitle('Join the waitlist');

  return (
    <div className="waitlist">
      <AnnouncementBanner icon="rocket" linkText="Claim yours" target="signup-form">
        <strong>Only 200 early-access spots.</strong> {BRAND_NAME} launches in {LAUNCH_YEAR}.
      </AnnouncementBanner>

      <Hero titleId="waitlist-title" className="waitlist-hero" art={<HeroPreview />}>
        <p className="eyebrow">For creators, brands and agencies</p>
        <h1 id="waitlist-title">
          Be one of the <span className="gradient-text">First 200</span> to create with real people
        </h1>
        <p className="lead">
          Commercially licensed AI images of real, consenting talent. Lock in early access now and be first in line when
          we open the doors.
        </p>
        <HeroActions>
          <Link to={{ hash: 'signup-form' }} className="button button--primary">
            Lock in early access <Icon name="arrowRight" size={18} className="button__arrow" />
          </Link>
          <Link to={{ hash: 'how-it-works' }} className="button button--secondary">
            See how it works
          </Link>
        </HeroActions>
        <HeroPoints points={['Free to join', 'First 100 get beta access', 'Consent-first']} />
      </Hero>

      <section id="why-create" className="section" aria-labelledby="why-create-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">Why create with {BRAND_NAME}</p>
            <h2 id="why-create-title">AI imagery you can put your name to</h2>
            <p>
              Stock photos are slow and generic. Most AI images come with no idea whose face you are using. We built the
              third option.
            </p>
          </div>
          <IconCards items={WHY_CREATE} className="feature-grid" />
        </div>
      </section>

      <section id="how-it-works" className="section section--muted" aria-labelledby="how-it-works-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">How it works</p>
            <h2 id="how-it-works-title">From idea to licensed image in three steps</h2>
          </div>
          <IconCards items={HOW_IT_WORKS} className="icon-cards--three" numbered="plum" plumBadge={() => true} />
        </div>
      </section>

      <section className="section waitlist-signup" aria-label="Sign up">
        <div className="container waitlist-signup__grid">
          <WaitlistSignupForm />
          <WhatHappensNext title="What happens next" titleId="next-title" items={NEXT} />
        </div>
      </section>

      <Faq items={WAITLIST_FAQ} muted />
    </div>
  );
}

/** Decorative mock of a licensed generation; conveys the product without a network image. */
function HeroPreview() {
  return (
    <div className="hero-preview" aria-hidden="true">
      <div className="hero-preview__card">
        <div className="hero-preview__image">
          <svg viewBox="0 0 200 200" className="hero-preview__person" focusable="false">
            <defs>
              <linearGradient id="hp-skin" x1="0" y1="0" x2="0" y2="1">
                <stop offset="0" stopColor="#f7c9a8" />
                <stop offset="1" stopColor="#e4a27e" />
              </linearGradient>
              <linearGradient id="hp-top" x1="0" y1="0" x2="1" y2="1">
                <stop offset="0" stopColor="#7e2a6b" />
                <stop offset="1" stopColor="#4c1d45" />
              </linearGradient>
            </defs>
            <path d="M52 200c4-42 24-64 48-64s44 22 48 64z" fill="url(#hp-top)" />
            <rect x="88" y="112" width="24" height="30" rx="10" fill="#e4a27e" />
            <ellipse cx="100" cy="86" rx="34" ry="40" fill="url(#hp-skin)" />
            <path d="M64 84c-2-32 18-48 38-48 22 0 38 16 36 46-8-14-20-22-36-24-14 6-26 14-38 26z" fill="#3b2418" />
          </svg>
          <span className="status-chip hero-preview__chip--top">
            <Icon name="shield" size={16} /> Consent verified
          </span>
        </div>
        <div className="hero-preview__meta">
          <div>
            <p className="hero-preview__name">Example talent · Lifestyle</p>
            <p className="hero-preview__prompt">“Morning coffee in a sunlit studio, editorial style”</p>
          </div>
          <span className="hero-preview__badge">
            <Icon name="license" size={16} /> Licensed
          </span>
        </div>
      </div>
      <div className="hero-preview__float">
        <Icon name="coins" size={18} />
        <span>
          <strong>1 credit</strong> per image
        </span>
      </div>
    </div>
  );
}
