import { useCallback, useMemo } from 'react';
import { Link } from 'react-router';
import type { Generation } from '../../../../events/generations';
import { licensePath } from '../../../../events/generation-values';
import { creditsText, formatDate } from '../../account/format';
import { Icon } from '../../components/Icon';
import { useConfig } from '../../config';
import { DownloadButton } from '../../generation/DownloadButton';
import { generationApi } from '../../generation/api';
import { STATUS_TEXT } from '../../generation/format';
import type { SignedIn } from './PortalGate';
import { PagedListFooter, usePagedList } from './PagedList';
import './GenerationHistory.css';

/** Status chip colours the portal already has: succeeded as accepted, running as in review, failed. */
const CHIP: Record<Generation['status'], string> = {
  queued: 'validating',
  starting: 'validating',
  processing: 'validating',
  succeeded: 'accepted',
  failed: 'failed',
  canceled: 'failed',
};

/**
 * The client portal's generation history (docs/product.md#client-portal): `GET /me/generations`,
 * newest first, 20 at a time with "Load more"; each with its thumbnails, status, credits spent,
 * downloads and license links, and a failed one with its message. Read again when the balance changes.
 */
export function GenerationHistory({ auth }: { auth: SignedIn }) {
  const { apiUrl } = useConfig();
  const api = useMemo(() => generationApi({ apiUrl, getIdToken: auth.getIdToken }), [apiUrl, auth.getIdToken]);
  const load = useCallback((cursor?: string) => api.history(cursor).then((page) => ({ items: page.generations, nextCursor: page.nextCursor })), [api]);
  const list = usePagedList<Generation, HTMLElement>({
    name: 'generation-history',
    load,
    idOf: (g) => g.id,
    // Read again whenever the balance changes (a generation spent or returned credits).
    reloadKey: auth.me.credits?.balance,
    noun: ['generation', 'generations'],
    failedMessage: 'Your generations could not be loaded.',
  });
  const { items, state, error, focusId, firstNew } = list;

  return (
    <section className="card acct-card gen-history" aria-labelledby="history-title" data-testid="generation-history">
      <div className="gen-history__head">
        <h2 id="history-title" className="acct-card__title">
          <Icon name="sparkles" size={20} /> Generation history
        </h2>
        {items.length > 0 && (
          <Link to="/create" className="button button--secondary">
            Create more images
          </Link>
        )}
      </div>
      {state === 'loading' ? (
        <p role="status" className="acct-muted">
          Loading your generations…
        </p>
      ) : items.length === 0 && !error ? (
        <div className="acct-empty__body">
          <p>You have not generated any images yet. Your images and their licences will be listed here.</p>
          <Link to="/create" className="button button--primary">
            Create your first image <Icon name="arrowRight" size={18} className="button__arrow" />
          </Link>
        </div>
      ) : (
        <ol className="gen-history__list">
          {items.map((g) => (
            <li key={g.id}>
              <article
                className="gen-item"
                aria-labelledby={`gen-${g.id}`}
                data-testid="history-item"
                data-status={g.status}
                ref={g.id === focusId ? firstNew : undefined}
                tabIndex={g.id === focusId ? -1 : undefined}
              >
                <header className="gen-item__head">
                  <h3 id={`gen-${g.id}`} className="gen-item__title">
                    {g.talentName} · {g.style}
                  </h3>
                  <span className={`acct-status__chip acct-status__chip--${CHIP[g.status]}`} data-testid="history-status">
                    {STATUS_TEXT[g.status].label}
                  </span>
                </header>
                <p className="gen-item__meta">
                  <time dateTime={g.createdAt}>{formatDate(g.createdAt)}</time> ·{' '}
                  <span data-testid="history-credits">{creditsText(g.creditsSpent)} spent</span> · {g.count}{' '}
                  {g.count === 1 ? 'image' : 'images'} asked
                </p>
                <p className="gen-item__prompt">{g.prompt}</p>
                {g.failure && (
                  <p className="gen-item__failure" data-testid="history-failure">
                    {g.failure.message}
                    {g.failure.code === 'insufficient-credits' && (
                      <>
                        {' '}
                        <Link to="/pricing">See the plans</Link>
                      </>
                    )}
                  </p>
                )}
                {g.images.length > 0 && (
                  <ul className="gen-item__images" aria-label={`Images of ${g.talentName}, ${g.style}`}>
                    {g.images.map((image, i) => (
                      <li key={image.licenseId} className="gen-thumb" data-testid="history-image">
                        <img src={image.url} alt={`Image ${i + 1} of ${g.images.length}`} width={160} height={160} loading="lazy" />
                        <DownloadButton api={api} licenseId={image.licenseId} label={`Download image ${i + 1} of ${g.talentName}, ${formatDate(g.createdAt)}`} />
                        <Link to={licensePath(image.licenseId)} className="gen-thumb__license" aria-label={`License of image ${i + 1} of ${g.talentName}, ${formatDate(g.createdAt)}`}>
                          License
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </article>
            </li>
          ))}
        </ol>
      )}
      <PagedListFooter list={list} />
    </section>
  );
}
