import * as z from 'zod';
import { accountStores, AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { royaltyStore } from '../../store';
import { myStatement } from './service';

const config = loadConfig(AccountTables.extend({ GENERATIONS_TABLE: z.string().min(1) }));

/** `GET /me/statements/{id}` (accepted talent): one of their statements with its lines (docs/royalties.md#talent-portal). */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  return json(200, await myStatement({ ...accountStores(doc, config), royalties: royaltyStore(doc, config.GENERATIONS_TABLE) }, caller, event.pathParameters?.id));
});
