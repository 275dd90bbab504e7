import type * as z from 'zod';
import type { AdminMessage, ListResponse, MessageListQuery } from '../../../../events/admin';
import { matchesQuery, sortAndPage } from '../../../shared/admin-list';
import type { MessageStore } from '../../store';

/** One page of contact messages, filtered by search text and status. */
export async function listMessages(store: MessageStore, query: z.output<typeof MessageListQuery>): Promise<ListResponse<AdminMessage>> {
  const all = await store.listAll();
  const matching = all.filter(
    (m) => matchesQuery(query.q, m.firstName, m.lastName, `${m.firstName} ${m.lastName}`, m.email, m.subject) && (query.status === undefined || m.status === query.status),
  );
  return sortAndPage(matching, query, (m, key) => m[key]);
}
