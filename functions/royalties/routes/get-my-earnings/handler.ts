import * as z from 'zod';
import { accountStores, AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { capMicrosOfCents } from '../../arithmetic';
import { royaltyStore } from '../../store';
import { myEarnings } from './service';

const config = loadConfig(
  AccountTables.extend({
    GENERATIONS_TABLE: z.string().min(1),
    /** The stage's cap on promotional royalties per talent per statement, in whole cents (this month so far applies it as the close will). */
    PROMOTIONAL_ROYALTY_CAP_CENTS: z.coerce.number().int().nonnegative(),
  }),
);

/** `GET /me/earnings` (accepted talent): this month so far, live (docs/royalties.md#talent-portal). */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  const deps = { ...accountStores(doc, config), royalties: royaltyStore(doc, config.GENERATIONS_TABLE), promotionalCapMicros: capMicrosOfCents(config.PROMOTIONAL_ROYALTY_CAP_CENTS) };
  return json(200, await myEarnings(deps, caller));
});
