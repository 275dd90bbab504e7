import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { DEFAULT_WAITLIST_CAPACITY } from '../../../events/product';
import type { WaitlistStats } from '../../../events/waitlist';
import { requireGroup } from '../../shared/auth';
import { documentClient } from '../../shared/clients';
import { loadConfig, positiveIntFromEnv } from '../../shared/config';
import { httpHandler, json } from '../../shared/http';
import { COUNTER_KEY } from '../../shared/waitlist-keys';

const config = loadConfig(
  z.object({
    WAITLIST_TABLE: z.string().min(1),
    WAITLIST_CAPACITY: positiveIntFromEnv.default(DEFAULT_WAITLIST_CAPACITY),
  }),
);

/** `GET /admin/stats`: the figures of the console's dashboard. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const counter = await documentClient().send(
    new GetCommand({ TableName: config.WAITLIST_TABLE, Key: { pk: COUNTER_KEY }, ConsistentRead: true }),
  );
  const body: WaitlistStats = {
    waitlist: { count: Number(counter.Item?.count ?? 0), capacity: config.WAITLIST_CAPACITY },
  };
  return json(200, body);
});
