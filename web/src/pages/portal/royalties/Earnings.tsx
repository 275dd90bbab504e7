import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState } from 'react';
import type { Likeness } from '../../../../../events/accounts';
import { noRoyaltyNote, PAYOUT_STATUS_LABELS, PROMOTIONAL_LABEL, TIER_LABELS } from '../../../../../events/royalty-values';
import type { StatementPayout } from '../../../../../events/payouts';
import type { EarningsResponse, StatementDetail, StatementSummary } from '../../../../../events/royalties';
import { dollarsOfMicros, lineTierLabel } from '../../../../../events/royalty-format';
import { formatDate } from '../../../account/format';
import { Icon } from '../../../components/Icon';
import { Loading, LoadError } from '../../../components/Loading';
import { errorText } from '../../../lib/errorText';
import { useConfig } from '../../../config';
import { monthLabel } from '../../../generation/format';
import { payoutsApi } from '../../../payouts/api';
import type { SignedIn } from '../PortalGate';
import { PayoutsCard, StatementPayoutItem } from '../payouts/PayoutsCard';
import { usePayouts } from '../payouts/usePayouts';
import { royaltiesApi, type RoyaltiesApi } from './api';
import { capLabel, money, promotionalNote, tierProgress, transparencyNote } from './format';
import './Earnings.css';
import { saveFile } from '../../../lib/saveFile';

/** This month's figures are read again this often while the page is visible. */
const REFRESH_MS = 30_000;
/** The chart shows at most this many months, newest last. */
const CHART_MONTHS = 12;
const MIN_CHART_SLOTS = 6;

/**
 * The talent portal's royalties (docs/royalties.md#talent-portal): this month so far (live),
 * how royalties are computed, a chart of monthly earnings, each closed statement with its tiers,
 * licenses (never a prompt), CSV and payout; then the payouts card (the payout account at Stripe).
 */
export default function Earnings({ auth, likeness }: { auth: SignedIn; likeness: Likeness }) {
  const { apiUrl } = useConfig();
  const api = useMemo(() => royaltiesApi({ apiUrl, getIdToken: auth.getIdToken }), [apiUrl, auth.getIdToken]);
  const payoutsClient = useMemo(() => payoutsApi({ apiUrl, getIdToken: auth.getIdToken }), [apiUrl, auth.getIdToken]);
  const payouts = usePayouts(payoutsClient);
  const payoutOf = useMemo(() => new Map((payouts.data?.payouts ?? []).map((p) => [p.statementId, p])), [payouts.data]);
  const id = useId();
  // This month's figures are read again every 30 s while the page is visible; the statements on mount and Refresh.
  const earningsQuery = useQuery({ queryKey: ['earnings'], queryFn: () => api.earnings(), refetchInterval: REFRESH_MS });
  const statementsQuery = useQuery({ queryKey: ['statements'], queryFn: () => api.statements() });
  const earnings = earningsQuery.data;
  const statements = statementsQuery.data;
  const failure = earningsQuery.error ?? statementsQuery.error;
  const error = failure ? errorText(failure, 'Your royalties could not be loaded.') : '';
  const updatedAt = earningsQuery.dataUpdatedAt ? new Date(earningsQuery.dataUpdatedAt) : undefined;
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    payouts.reload();
    void Promise.all([earningsQuery.refetch(), statementsQuery.refetch()]).finally(() => setRefreshing(false));
  };

  const nothingYet = earnings && statements && earnings.totals.licenses === 0 && statements.length === 0;

  return (
    <>
      <section className="card acct-card roy" aria-labelledby={`${id}-title`} data-testid="royalties">
        <h2 id={`${id}-title`} className="acct-card__title">
          <Icon name="coins" size={20} /> Royalties
        </h2>
        <p className="acct-muted" data-testid="royalty-note">
          {transparencyNote(likeness.founding)}
        </p>
        {!earnings && !error && <Loading>Loading your royalties…</Loading>}
        {error && <LoadError message={error} onRetry={refresh} />}
        {nothingYet && <p data-testid="royalties-empty">No royalties yet. Each license issued with your likeness earns you a royalty, shown here as it happens.</p>}
        {earnings && (
          <div className="roy-month" data-testid="earnings-month">
            <h3 className="roy-subtitle">This month so far ({monthLabel(earnings.month)})</h3>
            <p className="acct-balance__number roy-amount">
              <span data-testid="earnings-amount">{money(earnings.totals.royaltyCents)}</span>
              <span className="acct-balance__unit">
                from <span data-testid="earnings-licenses">{earnings.totals.licenses}</span> {earnings.totals.licenses === 1 ? 'license' : 'licenses'}
              </span>
            </p>
            <p data-testid="tier-progress">{tierProgress(earnings.totals, likeness.founding)}</p>
            {earnings.totals.promotional && (
              <p className="acct-muted" data-testid="earnings-promotional">
                {promotionalNote(earnings.totals.promotional)}
              </p>
            )}
            {earnings.totals.noRoyaltyLicenses ? (
              <p className="acct-muted" data-testid="earnings-no-royalty">
                {noRoyaltyNote(earnings.totals.noRoyaltyLicenses)}.
              </p>
            ) : null}
            {earnings.totals.carriedInMicros > 0 && (
              <p className="acct-muted">Includes ${dollarsOfMicros(earnings.totals.carriedInMicros)} carried from your last statement.</p>
            )}
            <div className="roy-refresh">
              <p className="acct-muted" aria-live="polite">
                {updatedAt ? `Updated ${updatedAt.toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit' })}` : ''}
              </p>
              <button type="button" className="acct-link-button" onClick={refresh} disabled={refreshing}>
                {refreshing ? 'Refreshing…' : 'Refresh'}
              </button>
            </div>
          </div>
        )}
        {earnings && statements && !nothingYet && <EarningsChart earnings={earnings} statements={statements} />}
        {statements && statements.length > 0 && (
          <div className="roy-statements">
            <h3 className="roy-subtitle">Statements</h3>
            <ul className="roy-list" data-testid="statements">
              {statements.map((s) => (
                <StatementItem key={s.id} summary={s} api={api} payout={payoutOf.get(s.id)} minimumCents={payouts.data?.minimumCents} />
              ))}
            </ul>
          </div>
        )}
      </section>
      <PayoutsCard api={payoutsClient} payouts={payouts} />
    </>
  );
}

/** Monthly earnings as bars: closed statements and this month so far; the same figures as a table for screen readers. */
function EarningsChart({ earnings, statements }: { earnings: EarningsResponse; statements: StatementSummary[] }) {
  const id = useId();
  // A closed month shows its statement; this month, until it closes, what it has earned so far.
  const closed = statements.map((s) => ({ month: s.month, cents: s.totals.royaltyCents, live: false }));
  const live = closed.some((m) => m.month === earnings.month) ? [] : [{ month: earnings.month, cents: earnings.totals.royaltyCents, live: true }];
  const months = [...closed, ...live].sort((a, b) => a.month.localeCompare(b.month)).slice(-CHART_MONTHS);
  const max = Math.max(1, ...months.map((m) => m.cents));
  // At least six slots, so a first month is a bar, not a block.
  const width = 100 / Math.max(months.length, MIN_CHART_SLOTS);
  return (
    <figure className="roy-chart" data-testid="earnings-chart">
      <figcaption id={`${id}-caption`} className="roy-subtitle">
        Earnings by month
      </figcaption>
      <svg viewBox="0 0 100 50" preserveAspectRatio="none" aria-hidden="true" focusable="false" className="roy-chart__svg">
        {months.map((m, i) => {
          const h = Math.max(0.5, (m.cents / max) * 48);
          return <rect key={m.month} x={i * width + width * 0.15} y={50 - h} width={width * 0.7} height={h} rx={0.6} className={m.live ? 'roy-chart__bar roy-chart__bar--live' : 'roy-chart__bar'} />;
        })}
      </svg>
      <ol className="roy-chart__labels" aria-hidden="true">
        {months.map((m) => (
          <li key={m.month} style={{ flexBasis: `${width}%` }}>
            <span className="roy-chart__value">{money(m.cents)}</span>
            <span>{monthLabel(m.month)}</span>
          </li>
        ))}
      </ol>
      <table className="sr-only" aria-labelledby={`${id}-caption`}>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">Royalties</th>
          </tr>
        </thead>
        <tbody>
          {months.map((m) => (
            <tr key={m.month}>
              <th scope="row">{monthLabel(m.month)}</th>
              <td>
                {money(m.cents)}
                {m.live ? ' so far' : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/**
 * A statement's payout: through Stripe (state, date and reference, the minimum or the failure)
 * once the payouts wing has it, else the statement's own payout status.
 */
function PayoutStatus({ summary, payout, minimumCents }: { summary: StatementSummary; payout?: StatementPayout; minimumCents?: number }) {
  if (payout && minimumCents !== undefined) return <StatementPayoutItem payout={payout} minimumCents={minimumCents} as="div" />;
  const status = summary.payout;
  return (
    <p className="roy-payout" data-testid="payout-status" data-status={status.status}>
      <span className={`acct-status__chip roy-chip roy-chip--${status.status}`}>{PAYOUT_STATUS_LABELS[status.status]}</span>
      {status.status === 'paid' && status.paidAt && (
        <span>
          {' '}
          on {formatDate(status.paidAt, 'UTC')}, reference <span data-testid="payout-reference">{status.reference}</span>
        </span>
      )}
    </p>
  );
}

/** A statement's adjustments to earlier months (royalties taken back, or given back), one row per license. */
function AdjustmentTable({
  testId,
  caption,
  lines,
  sign,
  paidOn,
}: {
  testId: string;
  caption: string;
  lines: StatementDetail['takenBack'] | NonNullable<StatementDetail['givenBack']>;
  sign: string;
  paidOn: (month: string) => string;
}) {
  return (
    <div className="roy-table-wrap">
      <table className="roy-table" data-testid={`${testId}-lines`}>
        <caption className="roy-caption">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">License</th>
            <th scope="col">Why</th>
            <th scope="col" className="roy-num">
              Royalty
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.licenseId} data-testid={`${testId}-line`}>
              <td>{formatDate(l.at, 'UTC')}</td>
              <td>
                <span className="roy-license">{l.licenseId}</span> ({paidOn(l.statementMonth)})
              </td>
              <td>{l.reason}</td>
              <td className="roy-num">
                {sign}${dollarsOfMicros(l.royaltyMicros)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function StatementItem({ summary, api, payout, minimumCents }: { summary: StatementSummary; api: RoyaltiesApi; payout?: StatementPayout; minimumCents?: number }) {
  const [detail, setDetail] = useState<StatementDetail>();
  const [error, setError] = useState('');
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState('');
  const loading = useRef(false);

  const open = async () => {
    if (detail || loading.current) return;
    loading.current = true;
    try {
      setDetail(await api.statement(summary.id));
      setError('');
    } catch (err) {
      setError(errorText(err, 'This statement could not be loaded.'));
    } finally {
      loading.current = false;
    }
  };

  const download = async () => {
    setDownloading(true);
    setDownloadError('');
    try {
      const { filename, blob } = await api.statementCsv(summary.id);
      saveFile(filename, blob);
    } catch (err) {
      setDownloadError(errorText(err, 'The CSV could not be downloaded. Try again.'));
    } finally {
      setDownloading(false);
    }
  };

  const { totals } = summary;
  return (
    <li className="roy-statement" data-testid="statement" data-statement={summary.id}>
      <details onToggle={(e) => (e.currentTarget.open ? void open() : undefined)}>
        <summary className="roy-statement__summary">
          <span className="roy-statement__month">{monthLabel(summary.month)}</span>
          <span className="roy-statement__amount" data-testid="statement-amount">
            {money(totals.royaltyCents)}
          </span>
          <span className="roy-statement__licenses acct-muted">
            {totals.licenses} {totals.licenses === 1 ? 'license' : 'licenses'}
          </span>
        </summary>
        <div className="roy-statement__body">
          <PayoutStatus summary={summary} payout={payout} minimumCents={minimumCents} />
          <div className="roy-table-wrap">
            <table className="roy-table" data-testid="statement-tiers">
              <caption className="sr-only">Royalties by tier</caption>
              <thead>
                <tr>
                  <th scope="col">Tier</th>
                  {['Licenses', 'Credit value', 'Royalty'].map((heading) => (
                    <th key={heading} scope="col" className="roy-num">
                      {heading}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {totals.tiers.map((t) => (
                  <tr key={t.tier}>
                    <th scope="row">{TIER_LABELS[t.tier]}</th>
                    <td className="roy-num">{t.licenses}</td>
                    <td className="roy-num">${dollarsOfMicros(t.grossMicros)}</td>
                    <td className="roy-num">${dollarsOfMicros(t.royaltyMicros)}</td>
                  </tr>
                ))}
                {totals.promotional && (
                  <>
                    <tr data-testid="statement-promotional">
                      <th scope="row">
                        {PROMOTIONAL_LABEL} (capped at {capLabel(totals.promotional)})
                      </th>
                      <td className="roy-num">{totals.promotional.licenses}</td>
                      <td className="roy-num">${dollarsOfMicros(totals.promotional.grossMicros)}</td>
                      <td className="roy-num">${dollarsOfMicros(totals.promotional.earnedMicros)}</td>
                    </tr>
                    {totals.promotional.cutMicros > 0 && (
                      <tr data-testid="statement-promotional-cut">
                        <th scope="row">Over the promotional cap, not paid</th>
                        <td />
                        <td />
                        <td className="roy-num">−${dollarsOfMicros(totals.promotional.cutMicros)}</td>
                      </tr>
                    )}
                  </>
                )}
                {totals.noRoyaltyLicenses ? (
                  <tr data-testid="statement-no-royalty">
                    <th scope="row">{noRoyaltyNote(totals.noRoyaltyLicenses)}</th>
                    <td className="roy-num">{totals.noRoyaltyLicenses}</td>
                    <td />
                    <td className="roy-num">$0.000000</td>
                  </tr>
                ) : null}
                <tr>
                  <th scope="row">Carried in</th>
                  <td />
                  <td />
                  <td className="roy-num">${dollarsOfMicros(totals.carriedInMicros)}</td>
                </tr>
                {totals.takenBack ? (
                  <tr data-testid="statement-taken-back">
                    <th scope="row">
                      Taken back (refunds, licenses revoked for a breach)
                      {totals.takenBack.absorbedMicros > 0 ? ` (Humanly covers the other $${dollarsOfMicros(totals.takenBack.absorbedMicros)}: a statement never goes below zero)` : ''}
                    </th>
                    <td className="roy-num">{totals.takenBack.licenses}</td>
                    <td />
                    <td className="roy-num">−${dollarsOfMicros(totals.takenBack.appliedMicros)}</td>
                  </tr>
                ) : null}
                {totals.givenBack ? (
                  <tr data-testid="statement-given-back">
                    <th scope="row">Given back (licenses reinstated on appeal)</th>
                    <td className="roy-num">{totals.givenBack.licenses}</td>
                    <td />
                    <td className="roy-num">${dollarsOfMicros(totals.givenBack.royaltyMicros)}</td>
                  </tr>
                ) : null}
                <tr className="roy-table__total">
                  <th scope="row">Paid (whole cents)</th>
                  <td className="roy-num">{totals.licenses}</td>
                  <td className="roy-num">${dollarsOfMicros(totals.grossMicros)}</td>
                  <td className="roy-num" data-testid="statement-paid">
                    {money(totals.royaltyCents)}
                  </td>
                </tr>
                <tr>
                  <th scope="row">Carried to next statement</th>
                  <td />
                  <td />
                  <td className="roy-num">${dollarsOfMicros(totals.carriedOutMicros)}</td>
                </tr>
              </tbody>
            </table>
          </div>
          {error && (
            <p className="acct-error" role="alert">
              {error}
            </p>
          )}
          {!detail && !error && (
            <p role="status" className="acct-muted">
              Loading the licenses…
            </p>
          )}
          {detail && (
            <div className="roy-table-wrap">
              <table className="roy-table" data-testid="statement-lines">
                <caption className="sr-only">Licenses on this statement</caption>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">License</th>
                    <th scope="col">Tier</th>
                    <th scope="col" className="roy-num">
                      Credit value
                    </th>
                    <th scope="col" className="roy-num">
                      Royalty
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {detail.lines.map((l) => (
                    <tr key={l.licenseId} data-testid="statement-line">
                      <td>{formatDate(l.at, 'UTC')}</td>
                      <td>
                        <a href={`/licenses/${encodeURIComponent(l.licenseId)}`} className="roy-license">
                          {l.licenseId}
                        </a>
                      </td>
                      <td>{lineTierLabel(l)}</td>
                      <td className="roy-num">${dollarsOfMicros(l.creditValueMicros)}</td>
                      <td className="roy-num">${dollarsOfMicros(l.royaltyMicros)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {detail && detail.takenBack.length > 0 && (
            <AdjustmentTable
              testId="statement-taken-back"
              caption="Royalties taken back: the client's payment for these images was refunded, or their license revoked for the client's breach"
              lines={detail.takenBack}
              sign="−"
              paidOn={(month) => `paid on the ${monthLabel(month)} statement`}
            />
          )}
          {detail?.givenBack && detail.givenBack.length > 0 && (
            <AdjustmentTable
              testId="statement-given-back"
              caption="Royalties given back: these licenses were reinstated on appeal"
              lines={detail.givenBack}
              sign=""
              paidOn={(month) => `taken back on the ${monthLabel(month)} statement`}
            />
          )}
          <div className="acct-actions">
            <button type="button" className="button button--secondary" onClick={() => void download()} disabled={downloading} data-testid="statement-csv">
              <Icon name="download" size={18} /> {downloading ? 'Downloading…' : 'Download CSV'}
              <span className="sr-only"> of the {monthLabel(summary.month)} statement</span>
            </button>
          </div>
          {downloadError && (
            <p className="acct-error" role="alert">
              {downloadError}
            </p>
          )}
        </div>
      </details>
    </li>
  );
}
