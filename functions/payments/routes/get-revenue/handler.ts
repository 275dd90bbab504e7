import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { paymentsStore } from '../../store';
import { revenue } from './service';

const config = loadConfig(z.object({ PAYMENTS_TABLE: z.string().min(1) }));

/** `GET /admin/revenue`: this month's revenue less refunds, recurring revenue, flagged accounts. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  return json(200, await revenue({ payments: paymentsStore(documentClient(), config.PAYMENTS_TABLE) }));
});
