import * as z from 'zod';
import { PayoutDetailsRequest } from '../../../../events/royalties';
import { accountStores, AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { log } from '../../../shared/log';
import { rateLimiter } from '../../../shared/rate-limit';
import { royaltyStore } from '../../store';
import { putPayoutDetails } from './service';

const config = loadConfig(
  AccountTables.extend({
    GENERATIONS_TABLE: z.string().min(1),
    RATE_LIMITS_TABLE: z.string().min(1),
  }),
);

/** `PUT /me/payout-details` (accepted talent): sets where monthly payouts go; answers them. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const body = parseJsonBody(event, PayoutDetailsRequest);
  const doc = documentClient();
  const saved = await putPayoutDetails(
    { ...accountStores(doc, config), royalties: royaltyStore(doc, config.GENERATIONS_TABLE), limit: rateLimiter(doc, config.RATE_LIMITS_TABLE) },
    caller,
    body,
  );
  // Which talent, never the address.
  log.info('payout details saved', { talentId: saved.talentId });
  return json(200, { accountHolder: saved.accountHolder, payoutEmail: saved.payoutEmail });
});
