import * as z from 'zod';
import { accountStores, AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { generationStore } from '../../store';
import { likenessUsage } from './service';

const config = loadConfig(
  AccountTables.extend({
    GENERATIONS_TABLE: z.string().min(1),
  }),
);

/** `GET /me/likeness-usage` (accepted talent): how many images were made with the likeness, by month. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  const usage = await likenessUsage(
    { ...accountStores(doc, config), generations: generationStore(doc, config.GENERATIONS_TABLE) },
    caller,
  );
  return json(200, usage);
});
