import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { formatCredits } from '../../account/format';
import { Icon } from '../../components/Icon';
import { Loaded } from '../../components/Loading';
import { useConfig } from '../../config';
import { generationApi } from '../../generation/api';
import { monthLabel, usageMonths } from '../../generation/format';
import type { SignedIn } from './PortalGate';
import './LikenessUsageCard.css';

/** The months the chart shows at most, newest last. */
const CHART_MONTHS = 12;

/**
 * The talent portal's count of images made with the likeness (docs/product.md#talent-portal):
 * the total and a bar per month (`GET /me/likeness-usage`), drawn with plain elements so each
 * bar is also its words for a screen reader.
 */
export function LikenessUsageCard({ auth }: { auth: SignedIn }) {
  const { apiUrl } = useConfig();
  const api = useMemo(() => generationApi({ apiUrl, getIdToken: auth.getIdToken }), [apiUrl, auth.getIdToken]);
  const query = useQuery({ queryKey: ['likeness-usage'], queryFn: () => api.likenessUsage() });
  const usage = query.data;

  const months = usage ? usageMonths(usage.months, new Date(), CHART_MONTHS) : [];
  const max = Math.max(1, ...months.map((m) => m.images));

  return (
    <section className="card acct-card usage" aria-labelledby="images-title" data-testid="likeness-images">
      <h2 id="images-title" className="acct-card__title">
        <Icon name="sparkles" size={20} /> Images made with your likeness
      </h2>
      {!usage && (
        <Loaded query={query} loading="Loading…" failed="The images made with your likeness could not be loaded.">
          {() => null}
        </Loaded>
      )}
      {usage && usage.total === 0 && (
        <p>No images yet. Each image a client generates with your likeness, and its licence, will be counted here.</p>
      )}
      {usage && usage.total > 0 && (
        <>
          <p className="acct-balance__number usage__total">
            <span data-testid="usage-total">{formatCredits(usage.total)}</span>
            <span className="acct-balance__unit">{usage.total === 1 ? 'image' : 'images'} in all</span>
          </p>
          <ol className="usage-chart" aria-label="Images by month" data-testid="usage-chart">
            {months.map((m) => (
              <li key={m.month} className="usage-chart__month" data-testid="usage-month" data-month={m.month}>
                <span className="usage-chart__value">{formatCredits(m.images)}</span>
                <span className="usage-chart__track" aria-hidden="true">
                  <span className="usage-chart__bar" style={{ height: `${Math.round((m.images / max) * 100)}%` }} />
                </span>
                <span className="usage-chart__label">
                  {monthLabel(m.month)}
                  <span className="sr-only">: {m.images === 1 ? '1 image' : `${m.images} images`}</span>
                </span>
              </li>
            ))}
          </ol>
          <p className="acct-muted">Counted by month (UTC). Every image carries a license, and earns you a royalty.</p>
        </>
      )}
    </section>
  );
}
