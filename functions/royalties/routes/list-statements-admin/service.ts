import type * as z from 'zod';
import type { AdminStatementList, AdminStatementQuery } from '../../../../events/royalties';
import { selectStatements, type StatementReads } from '../../statement-selection';

/**
 * The console's Statements list: newest month first by default (`order`), then by talent
 * name; paged as the console pages (`offset`, `limit`; `{items, total}`).
 */
export async function listStatementsAdmin(royalties: StatementReads, query: z.output<typeof AdminStatementQuery>, now = new Date()): Promise<AdminStatementList> {
  const { summaries } = await selectStatements(royalties, query, now);
  const dir = query.order === 'DESC' ? -1 : 1;
  const sorted = [...summaries].sort((a, b) => (a.month !== b.month ? (a.month < b.month ? -dir : dir) : a.talentName.localeCompare(b.talentName) || a.talentId.localeCompare(b.talentId)));
  return { items: sorted.slice(query.offset, query.offset + query.limit), total: sorted.length };
}
