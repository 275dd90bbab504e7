import type * as z from 'zod';
import type { AdminGenerationList, AdminGenerationQuery } from '../../../../events/generations';
import { sortAndPage } from '../../../shared/admin-list';
import { adminGenerationRow } from '../../views';
import type { GenerationStore } from '../../store';

/**
 * The console's Generations list: every generation matching the filters (status, talent,
 * client) from the list index, newest first by default, paged as the console pages
 * (`offset`, `limit`; `{items, total}`). Rows carry no image URLs; the detail signs them.
 */
export async function listGenerationsAdmin(
  deps: { generations: Pick<GenerationStore, 'listAll'> },
  query: z.output<typeof AdminGenerationQuery>,
): Promise<AdminGenerationList> {
  const records = await deps.generations.listAll({ status: query.status, talentId: query.talentId, accountId: query.accountId });
  const page = sortAndPage(records, query, (r) => r.createdAt);
  return { items: page.items.map(adminGenerationRow), total: page.total };
}
