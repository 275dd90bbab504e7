import * as z from 'zod';
import { royaltyStore } from '../../../royalties';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { csv, httpHandler, json } from '../../../shared/http';
import { stripeFromEnv } from '../../../shared/stripe';
import { payoutStore } from '../../store';
import { payoutHistory, payoutRun, payoutRunCsv, type PayoutReadDeps } from './service';

const config = loadConfig(z.object({ PAYOUTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1) }));

/** The console's payout reads (admins only): a month's run, its CSV, a talent's payout history. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const doc = documentClient();
  const deps: PayoutReadDeps = { stripe: await stripeFromEnv(), store: payoutStore(doc, config.PAYOUTS_TABLE), statements: royaltyStore(doc, config.GENERATIONS_TABLE) };
  const path = event.rawPath ?? '';
  if (path.endsWith('/payout-history')) return json(200, await payoutHistory(deps, event.pathParameters?.id));
  if (path.endsWith('/csv')) {
    const file = await payoutRunCsv(deps, event.pathParameters?.month);
    return csv(file.filename, file.csv);
  }
  return json(200, await payoutRun(deps, event.pathParameters?.month));
});
