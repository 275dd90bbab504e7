import * as z from 'zod';
import { UpdateLikenessRequest } from '../../../../events/accounts';
import { accountStores, AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { rateLimiter } from '../../../shared/rate-limit';
import { updateLikeness } from './service';

const config = loadConfig(
  AccountTables.extend({
    RATE_LIMITS_TABLE: z.string().min(1),
  }),
);

/** `PATCH /me/likeness` (accepted talent): answers the likeness with its new exclusions. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const { excludedIndustries } = parseJsonBody(event, UpdateLikenessRequest);
  const doc = documentClient();
  const stores = accountStores(doc, config);
  const likeness = await updateLikeness(
    {
      ...stores,
      setExcludedIndustries: (id, industries) => stores.talent.setExcludedIndustries(id, industries),
      limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
    },
    caller,
    excludedIndustries,
  );
  return json(200, likeness);
});
