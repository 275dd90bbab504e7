// The strongest of a case's file matches (no image decoding here: the report route bundles no sharp).
import type { ReportMatch } from '../../events/reports';

/** The strongest of several matches: one of ours before not-ours, exact pixels before metadata before perceptual. */
export function strongest(matches: ReportMatch[]): ReportMatch {
  const rank = (m: ReportMatch) => (m.verdict === 'not-ours' ? 0 : m.how === 'exact-pixels' ? 3 : m.how === 'metadata' ? 2 : 1);
  return matches.reduce<ReportMatch>((best, m) => (rank(m) > rank(best) ? m : best), { verdict: 'not-ours' });
}
