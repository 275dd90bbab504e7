import { lazy, Suspense, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ReportCreated } from '../../../../events/reports';
import { REPORT_DUE_HOURS, REPORTER_ROLES, type ReporterRole } from '../../../../events/report-values';
import { BRAND_NAME } from '../../brand';
import { Icon } from '../../components/Icon';
import { useConfig } from '../../config';
import type { ReportApi } from '../../lib/report-api';
import { usePageTitle } from '../../lib/usePageTitle';
import { ReportForm } from './ReportForm';
import { EMPTY_DRAFT, type ReportDraft } from './report-draft';
import '../../components/FormField.css';
import './ReportPage.css';

/** A license id as the license pages spell it (the query string is the visitor's to edit). */
const LICENSE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/* Loaded once a report is sent: the page starts without it (decision 014's JavaScript budget). */
const ReportSent = lazy(() => import('./ReportSent').then((m) => ({ default: m.ReportSent })));

/** The API's module (its client and wording) loads with the first file or send, not with the page. */
function lazyReportApi(apiUrl: string): ReportApi {
  const api = () => import('../../lib/report-api').then((m) => m.reportApi({ apiUrl }));
  return {
    uploadFile: (file, signal) => api().then((a) => a.uploadFile(file, signal)),
    send: (report, key) => api().then((a) => a.send(report, key)),
  };
}

/** The page's own values never change outside React. */
const noChange = () => () => {};

/**
 * The draft a link starts with: from a license page (`?license=`), the explanation names the
 * license; from "Is this me?" (`&url=`, `&role=talent`), the address and who reports.
 */
function prefilled(params: URLSearchParams, origin: string): { draft: ReportDraft; licenseId?: string } {
  const license = params.get('license');
  const licenseId = license && LICENSE_ID.test(license) ? license : undefined;
  const url = params.get('url') ?? '';
  const role = params.get('role');
  return {
    licenseId,
    draft: {
      ...EMPTY_DRAFT,
      explanation: licenseId ? `About license ${licenseId} (${origin}/licenses/${licenseId}): ` : '',
      urls: [/^https?:\/\//.test(url) ? url : ''],
      reporterRole: (REPORTER_ROLES as readonly string[]).includes(role ?? '') ? (role as ReporterRole) : '',
    },
  };
}

/**
 * /report (docs/product.md#reports-and-takedown): anyone, signed in or not, reports an image (what
 * is wrong, where it is, who reports), with the statements the EU Digital Services Act and, for an
 * intimate image, the TAKE IT DOWN Act ask for. Files are checked against what we delivered as they
 * are chosen. Opened from a license page (`?license=<id>`), the explanation names that license.
 */
export function ReportPage() {
  usePageTitle('Report an image');
  const { apiUrl, contactEmail } = useConfig();
  const api = useMemo(() => lazyReportApi(apiUrl), [apiUrl]);
  const [params] = useSearchParams();
  // The prerendered page is the empty form and hydration must match it: the query string counts once in the browser.
  const inBrowser = useSyncExternalStore(noChange, () => true, () => false);
  const query = inBrowser ? params.toString() : '';
  const [draft, setDraft] = useState<ReportDraft>(EMPTY_DRAFT);
  const [prefilledFrom, setPrefilledFrom] = useState({ query: '', licenseId: undefined as string | undefined });
  if (query !== prefilledFrom.query) {
    const start = prefilled(params, window.location.origin);
    setPrefilledFrom({ query, licenseId: start.licenseId });
    setDraft(start.draft);
  }
  const { licenseId } = prefilledFrom;
  const [sent, setSent] = useState<{ created: ReportCreated; email: string; intimate: boolean }>();
  const confirmation = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (sent) confirmation.current?.focus();
  }, [sent]);

  return (
    <div className="report-page" data-testid="report-page">
      <section className="page-hero report-hero" aria-labelledby="report-title">
        <div className="container page-hero__inner">
          <p className="eyebrow">Report</p>
          <h1 id="report-title">Report an image</h1>
          <p className="lead">
            Seen an image of a real person misused, or an image that only claims to come from {BRAND_NAME}? Tell us where it is. We
            check it against every image we delivered and a person reviews every report.
          </p>
        </div>
      </section>
      <div className="container report-page__grid">
        {sent ? (
          <Suspense fallback={<p className="card form-card report-form" role="status">Report received. Loading the details…</p>}>
          <ReportSent created={sent.created} email={sent.email} intimate={sent.intimate} headingRef={confirmation} onAnother={() => {
            setSent(undefined);
            setDraft(EMPTY_DRAFT);
          }} />
          </Suspense>
        ) : (
          <ReportForm
            api={api}
            draft={draft}
            setDraft={setDraft}
            licenseId={licenseId}
            contactEmail={contactEmail}
            onSent={(created, sentDraft) => setSent({ created, email: sentDraft.email.trim(), intimate: sentDraft.category === 'intimate' })}
          />
        )}
        <ReportAside />
      </div>
    </div>
  );
}

function ReportAside() {
  return (
    <aside className="report-page__aside" aria-label="How reports work">
      <div className="card report-aside">
        <h2 className="report-aside__title">How we handle a report</h2>
        <ul className="report-aside__list">
          <li>
            <Icon name="bell" size={20} />
            <span>
              <strong>Intimate or sexual images: within {REPORT_DUE_HOURS.intimate} hours.</strong> If the image is one of ours, we
              withhold it at once while we review.
            </span>
          </li>
          <li>
            <Icon name="calendar" size={20} />
            <span>
              <strong>Every other report: within {REPORT_DUE_HOURS.other / 24} days.</strong>
            </span>
          </li>
          <li>
            <Icon name="license" size={20} />
            <span>Every image we deliver carries its license, so we can tell whether an image was made here, and for whom.</span>
          </li>
          <li>
            <Icon name="shield" size={20} />
            <span>
              Your files and details are used for this report only and never published. See our <Link to="/privacy">Privacy Policy</Link>.
            </span>
          </li>
        </ul>
      </div>
      <p className="report-aside__talent">
        Talent on {BRAND_NAME} can check any image in their portal with <Link to="/talent-portal">Is this me?</Link>
      </p>
    </aside>
  );
}
