import { Link } from 'react-router';
import { formatCount, type PublicTalent } from '../../api/talent';
import { Icon } from '../../components/Icon';

/** One talent in the library grid; the whole card is the link to the profile. */
export function TalentCard({ talent }: { talent: PublicTalent }) {
  return (
    <li className="card library-card" data-testid="talent-card">
      <div className="library-card__media">
        <img src={talent.image} alt="" width={400} height={500} loading="lazy" decoding="async" className="library-card__image" />
        {talent.founding && <span className="library-card__badge">Founding talent</span>}
      </div>
      <div className="library-card__body">
        <h2 className="library-card__name">
          <Link to={`/talent/${talent.id}`} className="library-card__link">
            {talent.name}
          </Link>
        </h2>
        <p className="library-card__tagline">{talent.tagline}</p>
        <ul className="tag-list" aria-label={`${talent.name}'s tags`}>
          {talent.tags.map((tag) => (
            <li key={tag} className="tag-list__tag">
              {tag}
            </li>
          ))}
        </ul>
        <p className="library-card__count">
          <Icon name="sparkles" size={16} />
          <span>
            <strong>{formatCount(talent.generationCount)}</strong> generations
          </span>
        </p>
      </div>
    </li>
  );
}

/** Placeholder cards while the library loads (hidden from assistive technology; a status line says it). */
export function TalentCardSkeletons({ count = 3 }: { count?: number }) {
  return (
    <ul className="library-grid bare-list" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className="card library-card library-card--skeleton">
          <div className="library-card__media skeleton" />
          <div className="library-card__body">
            <div className="skeleton skeleton--title" />
            <div className="skeleton skeleton--line" />
            <div className="skeleton skeleton--line skeleton--short" />
          </div>
        </li>
      ))}
    </ul>
  );
}
