import * as z from 'zod';
import { accountStores, AccountTables } from '../../../accounts';
import { royaltyStore } from '../../../royalties';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { csv, httpHandler } from '../../../shared/http';
import { payoutStore } from '../../store';
import { myEarningsCsv } from './service';

const config = loadConfig(AccountTables.extend({ PAYOUTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1) }));

/** `GET /me/payouts/earnings.csv?year=YYYY` (accepted talent): the year's earnings as a CSV download. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  const deps = { ...accountStores(doc, config), store: payoutStore(doc, config.PAYOUTS_TABLE), statements: royaltyStore(doc, config.GENERATIONS_TABLE) };
  const file = await myEarningsCsv(deps, caller, event.queryStringParameters?.year);
  return csv(file.filename, file.csv);
});
