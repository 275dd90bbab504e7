import * as z from 'zod';
import { royaltyStore } from '../../../royalties';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { csv, httpHandler } from '../../../shared/http';
import { stripeFromEnv } from '../../../shared/stripe';
import { payoutStore } from '../../store';
import { payoutRunCsv } from './service';

const config = loadConfig(z.object({ PAYOUTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1) }));

/** `GET /admin/payout-runs/{month}/csv` (admins): the month's run as a CSV download. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const doc = documentClient();
  const deps = { stripe: await stripeFromEnv(), store: payoutStore(doc, config.PAYOUTS_TABLE), statements: royaltyStore(doc, config.GENERATIONS_TABLE) };
  const file = await payoutRunCsv(deps, event.pathParameters?.month);
  return csv(file.filename, file.csv);
});
