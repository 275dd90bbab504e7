import * as z from 'zod';
import { accountStores, AccountTables } from '../../../accounts';
import { royaltyStore } from '../../../royalties';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { stripeFromEnv } from '../../../shared/stripe';
import { payoutStore } from '../../store';
import { myPayouts, type MyPayoutsDeps } from './service';

const config = loadConfig(
  AccountTables.extend({ PAYOUTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), PAYOUT_MINIMUM_CENTS: z.coerce.number().int().nonnegative() }),
);

/** `GET /me/payouts` (accepted talent): their payout account and each statement's payout. */
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
  return json(200, await myPayouts(deps, caller));
});
