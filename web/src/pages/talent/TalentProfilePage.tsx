import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { TALENT_NOT_FOUND_MESSAGE } from '../../../../events/talent-values';
import { firstNameOf, formatCount, type PublicTalent } from '../../api/talent';
import { BadgeList } from '../../components/BadgeList';
import { Icon, type IconName } from '../../components/Icon';
import { useConfig } from '../../config';
import { usePageTitle } from '../../lib/usePageTitle';
import { useTalentProfile } from './useTalent';
import './talent.css';

const EXCLUSIVE_CONTRACT_BENEFITS: ReadonlyArray<{ icon: IconName; title: string; body: string }> = [
  { icon: 'license', title: 'Exclusive commercial licensing', body: 'Only your brand may license this likeness for the term you agree.' },
  { icon: 'sparkles', title: 'Custom AI model training', body: 'A model tuned to your brand’s look, trained with the talent’s consent.' },
  { icon: 'rocket', title: 'Priority generation access', body: 'Your generations go first, with dedicated capacity.' },
  { icon: 'shield', title: 'Removal from public library', body: 'The likeness leaves the public library while your contract is in force.' },
];

/** /talent/:id: one talent's profile (docs/product.md#talent-library). */
export function TalentProfilePage() {
  const { id = '' } = useParams();
  // One mount per id, so a new profile never starts from the previous one's state.
  return <TalentProfile key={id} id={id} />;
}

function TalentProfile({ id }: { id: string }) {
  const { apiUrl } = useConfig();
  const profile = useTalentProfile(apiUrl, id);
  usePageTitle(profile.status === 'ready' ? profile.data.name : profile.status === 'not-found' ? TALENT_NOT_FOUND_MESSAGE : 'Talent profile');

  if (profile.status === 'ready') return <Profile talent={profile.data} />;
  if (profile.status === 'not-found') {
    return (
      <ProfileMessage testId="talent-not-found" title={TALENT_NOT_FOUND_MESSAGE}>
        <p className="lead">This model is not in the Talent Library. The link may be mistyped, or they may have left the library.</p>
        <Link to="/talent" className="button button--primary">
          <span aria-hidden="true">←</span> Back to Talent Library
        </Link>
      </ProfileMessage>
    );
  }
  if (profile.status === 'error') {
    return (
      <ProfileMessage title="We couldn't load this profile" role="alert">
        <p className="lead">Check your connection and try again.</p>
        <div className="profile-message__actions">
          <button type="button" className="button button--primary" onClick={profile.retry}>
            Try again
          </button>
          <Link to="/talent" className="button button--secondary">
            Back to Talent Library
          </Link>
        </div>
      </ProfileMessage>
    );
  }
  return (
    <div className="container talent-profile" aria-busy="true">
      <p role="status" className="sr-only">
        Loading profile…
      </p>
      <div className="talent-profile__hero" aria-hidden="true">
        <div className="talent-profile__portrait skeleton" />
        <div className="talent-profile__intro">
          <div className="skeleton skeleton--title" />
          <div className="skeleton skeleton--line" />
          <div className="skeleton skeleton--line skeleton--short" />
        </div>
      </div>
    </div>
  );
}

function ProfileMessage({ title, role, testId, children }: { title: string; role?: 'alert'; testId?: string; children: ReactNode }) {
  return (
    <div className="container profile-message" role={role} data-testid={testId}>
      <span className="icon-badge icon-badge--plum" aria-hidden="true">
        <Icon name="users" />
      </span>
      <h1>{title}</h1>
      {children}
    </div>
  );
}

function RoyaltyNote({ talent }: { talent: PublicTalent }) {
  const first = firstNameOf(talent.name);
  return (
    <div className="royalty-note" data-testid="royalty-note">
      <h2 className="royalty-note__title">
        <Icon name="coins" size={20} /> Royalty transparency
      </h2>
      {talent.royaltyPlan === 'founding-35' ? (
        <p>
          {first} is founding talent and earns <strong>35% of every licence fee, for life</strong>.
        </p>
      ) : (
        <p>
          {first} earns <strong>20%</strong> of licence fees on the first 50 licences each month, <strong>25%</strong> on
          licences 51-200 and <strong>30%</strong> beyond 200.
        </p>
      )}
      <p className="royalty-note__small">Royalties are paid monthly. Every image you create with {first} is licensed for commercial use.</p>
    </div>
  );
}

function Profile({ talent }: { talent: PublicTalent }) {
  const first = firstNameOf(talent.name);
  const createUrl = `/create?talent=${encodeURIComponent(talent.id)}`;
  return (
    <article className="talent-profile" aria-labelledby="talent-name">
      <div className="container">
        <Link to="/talent" className="talent-profile__back">
          <span aria-hidden="true">←</span> Back to Talent Library
        </Link>
        <div className="talent-profile__hero">
          <img
            src={talent.image}
            alt={`Illustrated portrait of ${talent.name}`}
            width={400}
            height={500}
            className="talent-profile__portrait"
          />
          <div className="talent-profile__intro">
            {talent.founding && <p className="eyebrow">Founding talent</p>}
            <h1 id="talent-name">{talent.name}</h1>
            <p className="lead talent-profile__tagline">{talent.tagline}</p>
            <ul className="tag-list" aria-label="Tags">
              {talent.tags.map((tag) => (
                <li key={tag} className="tag-list__tag">
                  {tag}
                </li>
              ))}
            </ul>
            <p className="talent-profile__count" data-testid="generation-count">
              <Icon name="sparkles" size={20} />
              <span>
                <strong>{formatCount(talent.generationCount)}</strong> images generated
              </span>
            </p>
            <div className="talent-profile__actions">
              <Link to={createUrl} className="button button--primary">
                Create with {first} <Icon name="arrowRight" size={18} className="button__arrow" />
              </Link>
              <Link to={{ hash: 'freeze' }} className="button button--secondary">
                Freeze this likeness
              </Link>
            </div>
            <RoyaltyNote talent={talent} />
          </div>
        </div>
      </div>

      <section className="talent-profile__about" aria-labelledby="about-title">
        <div className="container">
          <h2 id="about-title">About {first}</h2>
          <p>{talent.bio}</p>
        </div>
      </section>

      <section className="section section--muted" aria-labelledby="gallery-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">AI sample gallery</p>
            <h2 id="gallery-title">What you can create with {first}</h2>
            <p>Illustrated previews of styles you can create. Your own images are generated from your prompt and licensed for commercial use.</p>
          </div>
          <ul className="sample-gallery">
            {talent.samples.map((src, i) => (
              <li key={src} className="sample-gallery__item">
                <img src={src} alt={`Sample ${i + 1} of ${talent.samples.length}: ${talent.name}, illustrated`} width={400} height={400} loading="lazy" decoding="async" />
              </li>
            ))}
          </ul>
          <div className="sample-gallery__cta">
            <Link to={createUrl} className="button button--primary">
              Generate images with {first} <Icon name="arrowRight" size={18} className="button__arrow" />
            </Link>
          </div>
        </div>
      </section>

      {/* The anchor keeps the name of the button that leads here, "Freeze this likeness", and of links already shared. */}
      <section id="freeze" className="section" aria-labelledby="exclusive-contract-title">
        <div className="container">
          <div className="exclusive-contract card">
            <div className="exclusive-contract__intro">
              <p className="eyebrow">Exclusive rights</p>
              <h2 id="exclusive-contract-title">Freeze This Likeness</h2>
              <p>
                Make {talent.name} the face of your brand alone. A frozen-likeness contract reserves {first}’s likeness for
                your brand while it is in force.
              </p>
              <Link to="/contact" className="button button--primary">
                Contact us about exclusive rights
              </Link>
            </div>
            <BadgeList items={EXCLUSIVE_CONTRACT_BENEFITS} className="bare-list exclusive-contract__benefits" />
          </div>
        </div>
      </section>
    </article>
  );
}
