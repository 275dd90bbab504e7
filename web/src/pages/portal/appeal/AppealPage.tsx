import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import type { AppealAccepted } from '../../../../../events/reports';
import { REPORT_LIMITS, REPORT_REFERENCE_PATTERN, REPORT_STATUS_LABELS } from '../../../../../events/report-values';
import { TextField } from '../../../components/FormField';
import { Facts } from '../../../components/Facts';
import { Icon } from '../../../components/Icon';
import { Loaded } from '../../../components/Loading';
import { useConfig } from '../../../config';
import { errorText } from '../../../lib/errorText';
import { useAccountQuery } from '../../../lib/query';
import { ReportFieldsError, signedInReportApi, type SignedInReportApi } from '../../../lib/report-api';
import { usePageTitle } from '../../../lib/usePageTitle';
import { PortalGate, type SignedIn } from '../PortalGate';
import { appealState, decisionFacts } from './decision-view';
import '../../../components/FormField.css';
import './AppealPage.css';

/**
 * /report/appeal/<reference> (docs/product.md#reports-and-takedown): the client whose license a
 * reviewer revoked (or whose account was suspended) after a report contests the decision; a
 * different reviewer decides again. The page shows the decision with its statement of reasons
 * (`GET /reports/{reference}/decision`) above the appeal; they also came by email, with this page's link.
 */
export function AppealPage() {
  usePageTitle('Appeal a decision');
  return <PortalGate role="client">{(auth) => <Appeal auth={auth} />}</PortalGate>;
}

function Appeal({ auth }: { auth: SignedIn }) {
  const { reference = '' } = useParams();
  const { apiUrl, contactEmail } = useConfig();
  const api = useMemo(() => signedInReportApi({ apiUrl, getIdToken: auth.getIdToken }), [apiUrl, auth.getIdToken]);
  const [statement, setStatement] = useState('');
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [sending, setSending] = useState(false);
  const [accepted, setAccepted] = useState<AppealAccepted>();
  const done = useRef<HTMLHeadingElement>(null);
  const valid = REPORT_REFERENCE_PATTERN.test(reference);

  useEffect(() => {
    if (accepted) done.current?.focus();
  }, [accepted]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    setFailure(undefined);
    const text = statement.trim();
    const problem = !text
      ? 'Explain why the decision should change.'
      : text.length > REPORT_LIMITS.statement
        ? `Your appeal must be ${REPORT_LIMITS.statement.toLocaleString('en-US')} characters or fewer.`
        : undefined;
    if (problem) {
      setError(problem);
      document.getElementById('appeal-statement')?.focus();
      return;
    }
    setError(undefined);
    setSending(true);
    try {
      setAccepted(await api.appeal(reference, text));
    } catch (err) {
      if (err instanceof ReportFieldsError) {
        setError(Object.values(err.fields)[0]);
        document.getElementById('appeal-statement')?.focus();
      } else setFailure(errorText(err, `The appeal could not be sent. Try again in a moment, or write to ${contactEmail}.`));
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="appeal-page" data-testid="appeal-page">
      <section className="page-hero appeal-hero" aria-labelledby="appeal-title">
        <div className="container page-hero__inner">
          <p className="eyebrow">Report {valid ? reference : ''}</p>
          <h1 id="appeal-title">Appeal a decision</h1>
          <p className="lead">
            A reviewer acted on a report about an image you licensed. If you think the decision is wrong, tell us why: a different
            reviewer looks at the case again.
          </p>
        </div>
      </section>
      <div className="container appeal-page__grid">
        {!valid ? (
          <section className="card appeal-card" role="alert" data-testid="appeal-bad-reference">
            <h2 className="appeal-card__title">This link is not complete</h2>
            <p>
              <strong className="appeal-reference">{reference}</strong> is not a report reference. Open the link in our email again, or
              write to <a href={`mailto:${contactEmail}`}>{contactEmail}</a> with the reference it gives.
            </p>
          </section>
        ) : (
          <div className="appeal-page__main">
            <DecisionCard api={api} reference={reference} />
            {accepted ? (
              <section className="card appeal-card appeal-sent" aria-labelledby="appeal-done-title" data-testid="appeal-sent">
                <span className="badge-circle appeal-sent__icon" aria-hidden="true">
                  <Icon name="check" size={28} />
                </span>
                <h2 id="appeal-done-title" ref={done} tabIndex={-1} className="appeal-card__title">
                  Appeal received
                </h2>
                <p data-testid="appeal-status">
                  Report <strong className="appeal-reference">{accepted.reference}</strong>: {REPORT_STATUS_LABELS[accepted.status]}.
                </p>
                <p>
                  A reviewer who did not make the first decision reads your appeal with the case. We email you the new decision and its
                  reasons at <strong>{auth.me.profile.email}</strong>.
                </p>
                <Link to="/client-portal" className="button button--secondary">
                  Back to your portal
                </Link>
              </section>
            ) : (
              <form className="card appeal-card" noValidate onSubmit={(e) => void submit(e)} aria-labelledby="appeal-form-title" data-testid="appeal-form">
                <h2 id="appeal-form-title" className="appeal-card__title">
                  Your appeal
                </h2>
                <dl className="appeal-facts">
                  <dt>Report</dt>
                  <dd className="appeal-reference" data-testid="appeal-reference">
                    {reference}
                  </dd>
                  <dt>The decision and its statement of reasons</dt>
                  <dd>Above, and in the email we sent to {auth.me.profile.email}, with the link to this page.</dd>
                </dl>
                <TextField
                  id="appeal-statement"
                  label="Why should the decision change?"
                  required
                  error={error}
                  hint="What the reviewer may have missed: your license, how the image was used, anything that shows the report is wrong."
                  name="statement"
                  rows={8}
                  value={statement}
                  onValueChange={(v) => {
                    setStatement(v);
                    setError(undefined);
                  }}
                />
                {failure && (
                  <p className="appeal-failure" role="alert" data-testid="appeal-failure">
                    {failure}
                  </p>
                )}
                <button type="submit" className="button button--primary appeal-submit" disabled={sending} aria-disabled={sending}>
                  {sending && <span className="form-spinner" aria-hidden="true" />}
                  {sending ? 'Sending…' : 'Send appeal'}
                </button>
              </form>
            )}
          </div>
        )}
        <aside className="appeal-page__aside" aria-label="How an appeal works">
          <div className="card appeal-aside">
            <h2 className="appeal-aside__title">How an appeal works</h2>
            <ul className="appeal-aside__list">
              <li>
                <Icon name="users" size={20} />
                <span>A different reviewer decides: never the one who made the first decision.</span>
              </li>
              <li>
                <Icon name="calendar" size={20} />
                <span>The case is due again as a new report: within 7 days, or 48 hours for an intimate image.</span>
              </li>
              <li>
                <Icon name="mail" size={20} />
                <span>You can appeal a decision once. The new decision comes by email, with its reasons.</span>
              </li>
            </ul>
          </div>
        </aside>
      </div>
    </div>
  );
}

/** The decision the client appeals: what was decided and when, the public reason, the reviewer's statement of reasons, and whether it can be appealed. */
function DecisionCard({ api, reference }: { api: SignedInReportApi; reference: string }) {
  const [query] = useAccountQuery(`report-decision:${reference}`, () => api.decision(reference));
  return (
    <section className="card appeal-card appeal-decision" aria-labelledby="appeal-decision-title" data-testid="appeal-decision">
      <h2 id="appeal-decision-title" className="appeal-card__title">
        The decision
      </h2>
      <Loaded query={query} loading="Loading the decision…" failed="The decision could not be loaded.">
        {(decision) => (
          <>
            <Facts className="appeal-facts" facts={decisionFacts(decision)} />
            <h3 className="appeal-decision__reasons-title">The reviewer's statement of reasons</h3>
            <p className="appeal-decision__reasons" data-testid="appeal-decision-reasons">
              {decision.reasons}
            </p>
            <p className="appeal-decision__state" data-testid="appeal-decision-state">
              {appealState(decision)}
            </p>
          </>
        )}
      </Loaded>
    </section>
  );
}
