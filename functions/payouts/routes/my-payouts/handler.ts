import * as z from 'zod';
import { accountStores, AccountTables } from '../../../accounts';
import { royaltyStore } from '../../../royalties';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { csv, httpHandler, json } from '../../../shared/http';
import { stripeFromEnv } from '../../../shared/stripe';
import { payoutStore } from '../../store';
import { myEarningsCsv, myPayouts, type MyPayoutsDeps } from './service';

const config = loadConfig(
  AccountTables.extend({ PAYOUTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), PAYOUT_MINIMUM_CENTS: z.coerce.number().int().nonnegative() }),
);

/** `GET /me/payouts` and `GET /me/payouts/earnings.csv?year=YYYY`: an accepted talent's own payouts. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  const deps: MyPayoutsDeps = {
    ...accountStores(doc, config),
    stripe: await stripeFromEnv(),
    store: payoutStore(doc, config.PAYOUTS_TABLE),
    statements: royaltyStore(doc, config.GENERATIONS_TABLE),
    minimumCents: config.PAYOUT_MINIMUM_CENTS,
    now: () => new Date(),
  };
  if ((event.rawPath ?? '').endsWith('/earnings.csv')) {
    const file = await myEarningsCsv(deps, caller, event.queryStringParameters?.year);
    return csv(file.filename, file.csv);
  }
  return json(200, await myPayouts(deps, caller));
});
