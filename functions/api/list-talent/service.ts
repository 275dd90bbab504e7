import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { PublicTalent, TalentListResponse } from '../../../events/talent';
import { publicTalentOf, type CatalogDeps } from '../../shared/talent-catalog';

/**
 * Every active talent, most generated first (ties by name). The catalog is small (tens to a
 * few hundred people), so one filtered scan, paged, is simpler than an index and the site
 * filters and sorts in the browser.
 */
export async function listTalent(deps: CatalogDeps): Promise<TalentListResponse> {
  const talent: PublicTalent[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await deps.doc.send(
      new ScanCommand({
        TableName: deps.tableName,
        FilterExpression: '#status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':active': 'active' },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const t = publicTalentOf(item);
      if (t) talent.push(t);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  talent.sort((a, b) => b.generationCount - a.generationCount || a.name.localeCompare(b.name));
  return { talent };
}
