import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Talent, type PublicTalent } from '../../events/talent';
import { log } from './log';

/** What the catalog's read functions need: the talent table (key `id`). */
export interface CatalogDeps {
  doc: DynamoDBDocumentClient;
  tableName: string;
}

/**
 * Reads one stored catalog item as a public talent, or undefined when it is hidden or does not
 * match the schema (logged by id: one bad item must not take the whole library down).
 */
export function publicTalentOf(item: Record<string, unknown> | undefined): PublicTalent | undefined {
  if (!item) return undefined;
  const parsed = Talent.safeParse(item);
  if (!parsed.success) {
    log.warn('talent item does not match the schema', {
      id: typeof item.id === 'string' ? item.id : undefined,
      problems: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    });
    return undefined;
  }
  if (parsed.data.status !== 'active') return undefined;
  const { status: _status, ...rest } = parsed.data;
  return rest;
}
