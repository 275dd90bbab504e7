import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { payoutStore } from '../../store';
import { payoutHistory } from './service';

const config = loadConfig(z.object({ PAYOUTS_TABLE: z.string().min(1) }));

/** `GET /admin/talent/{id}/payout-history` (admins): a talent's account events, bank changes and payouts. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  return json(200, await payoutHistory(payoutStore(documentClient(), config.PAYOUTS_TABLE), event.pathParameters?.id));
});
