import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod';
import type { ListResponse, TalentAdminListQuery } from '../../../events/admin';
import { Talent } from '../../../events/talent';
import { matchesQuery, sortAndPage } from '../../shared/admin-list';
import { log } from '../../shared/log';

export interface TalentAdminDeps {
  doc: DynamoDBDocumentClient;
  tableName: string;
}

type Query = z.output<typeof TalentAdminListQuery>;

/** Every talent of the catalog, hidden ones included, filtered and paged for the console. */
export async function listTalentAdmin(deps: TalentAdminDeps, query: Query): Promise<ListResponse<Talent>> {
  const all: Talent[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await deps.doc.send(new ScanCommand({ TableName: deps.tableName, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      const parsed = Talent.safeParse(item);
      if (parsed.success) all.push(parsed.data);
      else log.warn('talent item does not match the schema', { id: typeof item.id === 'string' ? item.id : undefined });
    }
    start = page.LastEvaluatedKey;
  } while (start);
  const matching = all.filter(
    (t) =>
      matchesQuery(query.q, t.name, t.id, t.tagline, ...t.tags) &&
      (query.status === undefined || t.status === query.status) &&
      (query.featured === undefined || String(t.featured) === query.featured) &&
      (query.founding === undefined || String(t.founding) === query.founding),
  );
  return sortAndPage(matching, query, (t, key) => t[key]);
}
