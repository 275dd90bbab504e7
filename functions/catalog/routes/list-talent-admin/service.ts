import type * as z from 'zod';
import type { ListResponse, TalentAdminListQuery } from '../../../../events/admin';
import type { Talent } from '../../../../events/talent';
import { matchesQuery, sortAndPage } from '../../../shared/admin-list';
import type { TalentStore } from '../../store';

type Query = z.output<typeof TalentAdminListQuery>;

/** Every talent of the catalog, hidden ones included, filtered and paged for the console. */
export async function listTalentAdmin(store: TalentStore, query: Query): Promise<ListResponse<Talent>> {
  const all = await store.listAll();
  const matching = all.filter(
    (t) =>
      matchesQuery(query.q, t.name, t.id, t.tagline, ...t.tags) &&
      (query.status === undefined || t.status === query.status) &&
      (query.featured === undefined || String(t.featured) === query.featured) &&
      (query.founding === undefined || String(t.founding) === query.founding),
  );
  return sortAndPage(matching, query, (t, key) => t[key]);
}
