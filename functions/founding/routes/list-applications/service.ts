import * as z from 'zod';
import { ApplicationListQuery, type ApplicationSummary } from '../../../../events/founding';
import type { FoundingStore } from '../../store';

export type ListQuery = z.output<typeof ApplicationListQuery>;

/**
 * Applications for the review console: all of them from the `byList` index (hundreds at most
 * before launch), filtered, sorted and paged here so every filter combines with every sort.
 */
export async function listApplications(
  deps: { store: FoundingStore },
  query: ListQuery,
): Promise<{ items: ApplicationSummary[]; total: number }> {
  const items = await deps.store.listApplicationSummaries();
  const q = query.q?.trim().toLowerCase();
  const to = query.to && /^\d{4}-\d{2}-\d{2}$/.test(query.to) ? `${query.to}T23:59:59.999Z` : query.to;
  const matching = items.filter(
    (a) =>
      (!query.status || a.status === query.status) &&
      (!query.program || a.program === query.program) &&
      (!query.from || a.submittedAt >= query.from) &&
      (!to || a.submittedAt <= to) &&
      (!query.excludes || a.excludedIndustries.includes(query.excludes)) &&
      (!q || `${a.firstName} ${a.lastName}`.toLowerCase().includes(q) || a.email.toLowerCase().includes(q)),
  );
  const key = (a: ApplicationSummary) =>
    query.sort === 'name' ? `${a.lastName} ${a.firstName}`.toLowerCase() : query.sort === 'status' ? a.status : a.submittedAt;
  matching.sort((a, b) => key(a).localeCompare(key(b)) || a.submittedAt.localeCompare(b.submittedAt) || a.id.localeCompare(b.id));
  if (query.order === 'DESC') matching.reverse();
  return { items: matching.slice(query.offset, query.offset + query.limit), total: matching.length };
}
