import { useMemo, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { filterTalent, tagsOf, TALENT_SORTS, type PublicTalent, type TalentFilters, type TalentSort } from '../../api/talent';
import { Icon } from '../../components/Icon';
import { useConfig } from '../../config';
import { usePageTitle } from '../../lib/usePageTitle';
import { TalentCard, TalentCardSkeletons } from './TalentCard';
import { useTalentList } from './useTalent';
import './talent.css';

/** Filters live in the URL (?q=&tag=&tag=&sort=name), so a filtered library can be shared and survives Back. */
function readFilters(params: URLSearchParams): TalentFilters {
  const sort = params.get('sort');
  return {
    query: params.get('q') ?? '',
    tags: params.getAll('tag'),
    sort: TALENT_SORTS.some((s) => s.value === sort) ? (sort as TalentSort) : 'most-generated',
  };
}

function toParams({ query, tags, sort }: TalentFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (query) params.set('q', query);
  for (const tag of tags) params.append('tag', tag);
  if (sort !== 'most-generated') params.set('sort', sort);
  return params;
}

/** /talent: the Talent Library (docs/product.md#talent-library). */
export function TalentLibraryPage() {
  usePageTitle('Talent Library');
  const { apiUrl } = useConfig();
  const list = useTalentList(apiUrl);

  let body: ReactNode;
  if (list.status === 'ready') body = <Library talent={list.data} />;
  else if (list.status === 'loading')
    body = (
      <div aria-busy="true">
        <p role="status" className="library-count">
          Loading models…
        </p>
        <TalentCardSkeletons />
      </div>
    );
  else
    body = (
      <div className="library-message" role="alert">
        <h2>We couldn't load the Talent Library</h2>
        <p>Check your connection and try again.</p>
        <button type="button" className="button button--primary" onClick={list.retry}>
          Try again
        </button>
      </div>
    );

  return (
    <div className="talent-library">
      <header className="talent-hero">
        <div className="container">
          <p className="eyebrow">Talent Library</p>
          <h1>
            Real people. <span className="gradient-text">Real consent.</span>
          </h1>
          <p className="lead talent-hero__lead">
            Every model here is a person who licensed their likeness and earns royalties on each image you create.
            Find the face that fits your story.
          </p>
        </div>
      </header>
      <section className="container talent-library__body" aria-label="Models">
        {body}
      </section>
    </div>
  );
}

function Library({ talent }: { talent: PublicTalent[] }) {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const allTags = useMemo(() => tagsOf(talent), [talent]);
  // At most a few hundred talent: filtering on every render is cheaper than memoizing it.
  const shown = filterTalent(talent, filters);
  const update = (next: Partial<TalentFilters>) => setParams(toParams({ ...filters, ...next }), { replace: true, preventScrollReset: true });
  const toggleTag = (tag: string) =>
    update({ tags: filters.tags.includes(tag) ? filters.tags.filter((t) => t !== tag) : [...filters.tags, tag] });
  const clearAll = () => update({ query: '', tags: [] });
  const hasFilters = filters.query.trim() !== '' || filters.tags.length > 0;

  return (
    <>
      <div className="library-toolbar">
        <div className="library-search">
          <label htmlFor="talent-search" className="sr-only">
            Search models
          </label>
          <Icon name="search" size={20} className="library-search__icon" />
          <input
            id="talent-search"
            type="search"
            className="input library-search__input"
            placeholder="Search models..."
            autoComplete="off"
            value={filters.query}
            onChange={(e) => update({ query: e.target.value })}
          />
        </div>
        <div className="library-sort">
          <label htmlFor="talent-sort" className="library-sort__label">
            Sort by
          </label>
          <select
            id="talent-sort"
            className="select library-sort__select"
            value={filters.sort}
            onChange={(e) => update({ sort: e.target.value as TalentSort })}
          >
            {TALENT_SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      <div className="library-tags" role="group" aria-labelledby="tag-filter-label">
        <span id="tag-filter-label" className="library-tags__label">
          Filter by tag
        </span>
        <ul className="library-tags__list">
          {allTags.map((tag) => {
            const pressed = filters.tags.includes(tag);
            return (
              <li key={tag}>
                <button type="button" className="tag-toggle" aria-pressed={pressed} onClick={() => toggleTag(tag)}>
                  {pressed && <Icon name="check" size={14} />}
                  {tag}
                </button>
              </li>
            );
          })}
        </ul>
      </div>

      {hasFilters && (
        <div className="library-active" data-testid="active-filters">
          <span className="library-active__label" id="active-filters-label">
            Active filters:
          </span>
          <ul className="library-active__list" aria-labelledby="active-filters-label">
            {filters.query.trim() && (
              <li>
                <button type="button" className="filter-chip" onClick={() => update({ query: '' })} aria-label={`Remove search "${filters.query.trim()}"`}>
                  “{filters.query.trim()}” <span aria-hidden="true">×</span>
                </button>
              </li>
            )}
            {filters.tags.map((tag) => (
              <li key={tag}>
                <button type="button" className="filter-chip" onClick={() => toggleTag(tag)} aria-label={`Remove filter ${tag}`}>
                  {tag} <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="library-active__clear" onClick={clearAll}>
            Clear all
          </button>
        </div>
      )}

      <p className="library-count" role="status" data-testid="library-count">
        Showing {shown.length} of {talent.length} models
      </p>

      {shown.length > 0 ? (
        <ul className="library-grid bare-list">
          {shown.map((t) => (
            <TalentCard key={t.id} talent={t} />
          ))}
        </ul>
      ) : (
        <div className="library-message" data-testid="library-empty">
          <span className="icon-badge" aria-hidden="true">
            <Icon name="search" />
          </span>
          <h2>No models found</h2>
          <p>Try adjusting your search terms or filters</p>
          {hasFilters && (
            <button type="button" className="button button--secondary" onClick={clearAll}>
              Clear all filters
            </button>
          )}
        </div>
      )}

      <aside className="library-cta">
        <div>
          <h2>Want your likeness in the library?</h2>
          <p>License your likeness with consent, set your limits and earn royalties every month.</p>
        </div>
        <Link to="/talent-application" className="button button--primary">
          Become talent <Icon name="arrowRight" size={18} className="button__arrow" />
        </Link>
      </aside>
    </>
  );
}
