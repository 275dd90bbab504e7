import * as z from 'zod';
import { UpdateLikenessRequest } from '../../../events/accounts';
import { requireRole } from '../../shared/auth';
import { documentClient } from '../../shared/clients';
import { loadConfig } from '../../shared/config';
import { ownChangeRule } from '../../shared/account-access';
import { httpHandler, json, parseJsonBody } from '../../shared/http';
import { rateLimiter } from '../../shared/rate-limit';
import { accountStore } from '../../stores/accounts';
import { foundingStore } from '../../stores/founding';
import { talentStore } from '../../stores/talent';
import { updateLikeness } from './service';

const config = loadConfig(
  z.object({
    ACCOUNTS_TABLE: z.string().min(1),
    APPLICATIONS_TABLE: z.string().min(1),
    TALENT_TABLE: z.string().min(1),
    RATE_LIMITS_TABLE: z.string().min(1),
  }),
);

/** `PATCH /me/likeness` (accepted talent): answers the likeness with its new exclusions. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const { excludedIndustries } = parseJsonBody(event, UpdateLikenessRequest);
  const doc = documentClient();
  // The account's id is the caller's `sub`.
  await rateLimiter(doc, config.RATE_LIMITS_TABLE)([ownChangeRule('likeness', caller.sub)]);
  const talent = talentStore(doc, config.TALENT_TABLE);
  const likeness = await updateLikeness(
    {
      accounts: accountStore(doc, config.ACCOUNTS_TABLE),
      standing: { founding: foundingStore(doc, config.APPLICATIONS_TABLE), talent },
      setExcludedIndustries: (id, industries) => talent.setExcludedIndustries(id, industries),
    },
    caller,
    excludedIndustries,
  );
  return json(200, likeness);
});
