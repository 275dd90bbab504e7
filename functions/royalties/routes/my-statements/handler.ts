import * as z from 'zod';
import { accountStores, AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { royaltyStore } from '../../store';
import { myStatements } from './service';

const config = loadConfig(AccountTables.extend({ GENERATIONS_TABLE: z.string().min(1) }));

/** `GET /me/statements` (accepted talent): their closed statements (docs/royalties.md#talent-portal). */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  return json(200, await myStatements({ ...accountStores(doc, config), royalties: royaltyStore(doc, config.GENERATIONS_TABLE) }, caller));
});
