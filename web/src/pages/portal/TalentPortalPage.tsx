import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { Likeness, TalentStanding } from '../../../../events/accounts';
import type { ExcludableIndustry } from '../../../../events/founding-values';
import { REPORT_PATH } from '../../../../events/report-values';
import {
  APPLICATION_STATUS_TEXT,
  INDUSTRY_LABELS,
  LIKENESS_STATUS_TEXT,
  TALENT_ACCESS_TEXT,
  formatDate,
  sameIndustries,
  welcomeTitle,
} from '../../account/format';
import { Icon } from '../../components/Icon';
import { usePageTitle } from '../../lib/usePageTitle';
import { FaceDataCard } from './face-data/FaceDataCard';
import { LikenessControlsSection } from './likeness/LikenessControlsSection';
import { LikenessCheckCard } from './likeness-check/LikenessCheckCard';
import { LikenessUsageCard } from './LikenessUsageCard';
import { PortalGate, type SignedIn } from './PortalGate';
import { PortalHeader } from './PortalHeader';
import { ProfileCard } from './ProfileCard';
import { EarningsSection } from './royalties/EarningsSection';
import { LikenessModelSection } from './training/LikenessModelSection';
import { useAccountApi } from './useAccountApi';
import '../../components/application/ExcludedIndustries.css';
import './AccountPortal.css';

/** In the contract's order. */
const INDUSTRIES = Object.keys(INDUSTRY_LABELS) as ExcludableIndustry[];

/** /talent-portal: a talent's application, likeness, excluded industries and royalties (docs/product.md#talent-portal). */
export function TalentPortalPage() {
  usePageTitle('Talent Portal');
  return <PortalGate role="talent">{(auth) => <TalentPortal auth={auth} />}</PortalGate>;
}

function TalentPortal({ auth }: { auth: SignedIn }) {
  const { me } = auth;
  const standing: TalentStanding = me.talent ?? { access: 'none' };
  const accepted = standing.access === 'accepted' && standing.likeness;
  return (
    <div className="acct acct--talent" data-testid="talent-portal-page">
      <PortalHeader
        auth={auth}
        eyebrow="Talent Portal"
        title={welcomeTitle(me.profile.full_name)}
        lead={accepted ? 'Your likeness, how it may be used and what it earns.' : 'Your application, and your likeness once it is accepted.'}
      />

      <div className="container acct-body">
        <div className="acct-grid">
          <ApplicationCard standing={standing} email={me.profile.email} />
          {standing.application && <FaceDataCard auth={auth} />}
          {standing.likeness && <LikenessCard likeness={standing.likeness} />}
          <ProfileCard profile={me.profile} updateProfile={auth.updateProfile} />
        </div>

        {standing.access === 'accepted' && standing.likeness ? (
          <>
            <LikenessModelSection auth={auth} />
            <LikenessControlsSection auth={auth} likeness={standing.likeness} />
            <ExcludedIndustriesCard auth={auth} likeness={standing.likeness} />
            <EarningsSection auth={auth} likeness={standing.likeness} />
            <LikenessUsageCard auth={auth} />
          </>
        ) : (
          <p className="card acct-card acct-note acct-locked" data-testid="talent-locked">
            <Icon name="shield" size={20} />
            <span>
              Your likeness, the industries you exclude, the images made with it and your royalties appear here once an application
              under <strong className="acct-facts__email">{me.profile.email}</strong> is accepted.
            </span>
          </p>
        )}

        <LikenessCheckCard auth={auth} />
        <p className="acct-muted">
          Seen your likeness misused anywhere? <Link to={REPORT_PATH}>Report an image</Link> and we review it within 7 days, or 48 hours for
          intimate images.
        </p>
      </div>
    </div>
  );
}

function ApplicationCard({ standing, email }: { standing: TalentStanding; email: string }) {
  const { application } = standing;
  const status = application ? APPLICATION_STATUS_TEXT[application.status] : undefined;
  return (
    <section className="card acct-card" aria-labelledby="application-title" data-testid="application-card">
      <h2 id="application-title" className="acct-card__title">
        <Icon name="license" size={20} /> Application
      </h2>
      {application && status ? (
        <>
          <p className="acct-status">
            <span className={`acct-status__chip acct-status__chip--${application.status}`} data-testid="application-status">
              {status.label}
            </span>
          </p>
          <p>{status.body}</p>
          <p className="acct-muted" data-testid="application-submitted">
            Submitted {formatDate(application.submittedAt)}
          </p>
        </>
      ) : (
        <>
          <p className="acct-status">
            <span className="acct-status__chip" data-testid="application-status">
              {TALENT_ACCESS_TEXT.none}
            </span>
          </p>
          <p>
            We have no application under <span className="acct-facts__email">{email}</span>. Apply with this email and your portal
            opens when you are accepted.
          </p>
          <div className="acct-actions">
            <Link to="/founding-talent-application" className="button button--primary" data-testid="apply-founding">
              Apply as founding talent <Icon name="arrowRight" size={18} className="button__arrow" />
            </Link>
            <Link to="/talent-application" className="button button--ghost" data-testid="apply-standard">
              Apply as talent
            </Link>
          </div>
        </>
      )}
    </section>
  );
}

function LikenessCard({ likeness }: { likeness: Likeness }) {
  const status = LIKENESS_STATUS_TEXT[likeness.status];
  return (
    <section className="card acct-card" aria-labelledby="likeness-title" data-testid="likeness-card">
      <h2 id="likeness-title" className="acct-card__title">
        <Icon name="heart" size={20} /> Your likeness
      </h2>
      <p className="acct-plan">
        <strong className="acct-plan__name" data-testid="likeness-name">
          {likeness.name}
        </strong>
        {likeness.founding && <span className="acct-badge">Founding talent</span>}
      </p>
      <p className="acct-status">
        <span className={`acct-status__chip acct-status__chip--${likeness.status}`} data-testid="likeness-status">
          {status.label}
        </span>
      </p>
      <p>{status.body}</p>
      {likeness.status === 'active' && (
        <Link to={`/talent/${encodeURIComponent(likeness.talentId)}`}>See your profile in the Talent Library</Link>
      )}
    </section>
  );
}

function ExcludedIndustriesCard({ auth, likeness }: { auth: SignedIn; likeness: Likeness }) {
  const id = useId();
  const api = useAccountApi(auth.getIdToken);
  const [saved, setSaved] = useState<readonly ExcludableIndustry[]>(likeness.excludedIndustries);
  const [chosen, setChosen] = useState<readonly ExcludableIndustry[]>(likeness.excludedIndustries);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState('');

  const changed = !sameIndustries(chosen, saved);
  const toggle = (industry: ExcludableIndustry, on: boolean) => {
    setStatus('');
    setChosen((current) => INDUSTRIES.filter((i) => (i === industry ? on : current.includes(i))));
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setError(undefined);
    setStatus('');
    try {
      const updated = await api.updateLikeness(chosen);
      setSaved(updated.excludedIndustries);
      setChosen(updated.excludedIndustries);
      setStatus('Saved. Your choices apply to every generation from now on.');
      void auth.refresh();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Your choices could not be saved. Try again.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card acct-card" aria-labelledby={`${id}-title`} data-testid="excluded-industries">
      <h2 id={`${id}-title`} className="acct-card__title">
        <Icon name="shield" size={20} /> Excluded industries
      </h2>
      <form onSubmit={(e) => void save(e)} noValidate>
        <fieldset className="acct-fieldset" aria-describedby={`${id}-hint`}>
          <legend className="sr-only">Industries your likeness may not be used for</legend>
          <p id={`${id}-hint`} className="acct-muted">
            Your likeness is never used for the industries you tick. A change applies to future generations; images already
            made keep their licence.
          </p>
          <div className="industry-chips">
            {INDUSTRIES.map((industry) => (
              <label key={industry} className="industry-chip">
                <input
                  type="checkbox"
                  name={`exclude-${industry}`}
                  checked={chosen.includes(industry)}
                  onChange={(e) => toggle(industry, e.target.checked)}
                  disabled={saving}
                />
                <span>{INDUSTRY_LABELS[industry]}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="acct-actions">
          <button type="submit" className="button button--primary" disabled={saving || !changed}>
            {saving ? 'Saving…' : 'Save excluded industries'}
          </button>
          {changed && !saving && (
            <button type="button" className="button button--ghost" onClick={() => setChosen(saved)}>
              Undo changes
            </button>
          )}
        </div>
      </form>
      <p className="acct-error" role="alert">
        {error}
      </p>
      <p className="acct-saved" role="status">
        {status}
      </p>
    </section>
  );
}
