import { Link } from 'react-router';
import type { ReportMatch } from '../../../../events/reports';
import { MATCH_METHOD_LABELS, NOT_OURS_MESSAGE } from '../../../../events/report-values';
import { Icon } from '../../components/Icon';

/** "29 November 2026" (UTC, as licenses are dated). */
function dayOf(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/**
 * What matching found for a reported file: "Made on Humanly: license <id>, <talent>", with how
 * it was found and a link to the license, or "Not made on Humanly".
 */
export function MatchAnswer({ match, testId = 'report-match' }: { match: ReportMatch; testId?: string }) {
  if (match.verdict === 'not-ours') {
    return (
      <p className="report-match report-match--not-ours" data-testid={testId} data-verdict="not-ours">
        <strong>{NOT_OURS_MESSAGE}</strong>
        <span>We delivered no image like this one. We still review the report.</span>
      </p>
    );
  }
  return (
    <p className="report-match report-match--ours" data-testid={testId} data-verdict="ours" data-license-id={match.licenseId}>
      <strong>
        <Icon name="license" size={16} /> Made on Humanly: license <span className="report-match__id">{match.licenseId}</span>, {match.talentName}
      </strong>
      <span>
        Licensed on {dayOf(match.licensedAt)}; {MATCH_METHOD_LABELS[match.how]}.{' '}
        <Link to={`/licenses/${encodeURIComponent(match.licenseId)}`}>See the license</Link>
      </span>
    </p>
  );
}
