import type { RefObject } from 'react';
import type { ReportCreated } from '../../../../events/reports';
import { Facts } from '../../components/Facts';
import { Icon } from '../../components/Icon';
import { IconList } from '../../components/IconList';
import { MatchAnswer } from './MatchAnswer';

/** "Sunday 1 December 2026 at 14:05 GMT": the due time in the reader's own time zone, named. */
function dueTime(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
}

export function ReportSent({
  created,
  email,
  intimate,
  headingRef,
  onAnother,
}: {
  created: ReportCreated;
  email: string;
  intimate: boolean;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onAnother: () => void;
}) {
  const ours = created.match.verdict === 'ours';
  return (
    <section className="card form-card report-form report-sent" aria-labelledby="report-sent-title" data-testid="report-sent">
      <span className="badge-circle report-sent__icon" aria-hidden="true">
        <Icon name="check" size={28} />
      </span>
      <h2 id="report-sent-title" ref={headingRef} tabIndex={-1} className="form-card__title">
        Report received
      </h2>
      <Facts
        className="report-sent__facts"
        facts={[
          { term: 'Your reference', value: created.reference, testId: 'report-reference', className: 'report-sent__reference' },
          { term: 'We decide by', value: <time dateTime={created.dueAt}>{dueTime(created.dueAt)}</time>, testId: 'report-due' },
        ]}
      />
      <MatchAnswer match={created.match} testId="report-sent-match" />
      <h3 className="report-sent__next">What happens next</h3>
      <IconList
        steps
        items={[
          { icon: 'mail', title: 'A confirmation by email', body: <>We sent the reference to <strong>{email}</strong>. Quote it if you write to us about this report.</> },
          {
            icon: 'shield',
            title: intimate ? 'Reviewed within 48 hours' : 'Reviewed within 7 days',
            body: intimate
              ? ours
                ? 'The image is withheld already: its license page no longer shows it and its downloads are stopped while a person reviews your report.'
                : 'A person reviews your report first, within 48 hours.'
              : 'A person on our team reviews the report and what it matched.',
          },
          {
            icon: 'bell',
            title: 'Our decision, with its reasons',
            body: ours
              ? 'If the report holds, we revoke the license and tell the client and the person shown. You get our decision and its reasons by email.'
              : 'You get our decision and its reasons by email. An image not made here is not ours to remove, but we tell you what we found.',
          },
        ]}
      />
      <button type="button" className="button button--secondary" onClick={onAnother}>
        Report another image
      </button>
    </section>
  );
}
