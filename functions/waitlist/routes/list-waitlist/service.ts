import type * as z from 'zod';
import type { ListResponse, WaitlistEntry, WaitlistListQuery } from '../../../../events/admin';
import { matchesQuery, sortAndPage } from '../../../shared/admin-list';
import type { WaitlistStore } from '../../store';

type Query = z.output<typeof WaitlistListQuery>;

/** One page of the waitlist, filtered by search text, signup type and newsletter choice. */
export async function listWaitlist(store: WaitlistStore, query: Query): Promise<ListResponse<WaitlistEntry>> {
  const all = await store.readAll();
  const matching = all.filter(
    (e) =>
      matchesQuery(query.q, e.email, e.firstName) &&
      (query.signupType === undefined || e.signupType === query.signupType) &&
      (query.newsletter === undefined || String(e.newsletter) === query.newsletter),
  );
  return sortAndPage(matching, query, (e, key) => e[key]);
}
