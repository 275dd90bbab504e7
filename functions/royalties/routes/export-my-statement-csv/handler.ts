import * as z from 'zod';
import { accountStores, AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { csv, httpHandler } from '../../../shared/http';
import { royaltyStore } from '../../store';
import { myStatementCsv } from './service';

const config = loadConfig(AccountTables.extend({ GENERATIONS_TABLE: z.string().min(1) }));

/** `GET /me/statements/{id}/csv` (accepted talent): one of their statements as a CSV download. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  const file = await myStatementCsv({ ...accountStores(doc, config), royalties: royaltyStore(doc, config.GENERATIONS_TABLE) }, caller, event.pathParameters?.id);
  return csv(file.filename, file.csv);
});
