// What the likeness routes (functions/likeness/routes/get-likeness, pause-likeness, request-removal,
// cancel-removal) share: their configuration, stores and the per-account limit on changes.
import * as z from 'zod';
import { accountStores, AccountTables, ownChangeRule } from '../accounts';
import type { AccountCaller } from '../shared/auth';
import { documentClient } from '../shared/clients';
import { loadConfig, positiveIntFromEnv } from '../shared/config';
import { sendEmail } from '../shared/email';
import { rateLimiter } from '../shared/rate-limit';
import type { RemovalDeps } from './controls';

const Config = AccountTables.extend({
  RATE_LIMITS_TABLE: z.string().min(1).optional(),
  REMOVAL_NOTICE_SECONDS: positiveIntFromEnv.optional(),
  SENDER_EMAIL: z.string().min(3).optional(),
  SES_CONFIGURATION_SET: z.string().optional(),
  SITE_URL: z.string().min(1).optional(),
});

/** The stores and settings of a likeness route (removal's settings are required by the removal route only). */
export function likenessRouteDeps(): RemovalDeps {
  const config = loadConfig(Config);
  return {
    ...accountStores(documentClient(), config),
    now: () => new Date(),
    removalNoticeSeconds: config.REMOVAL_NOTICE_SECONDS ?? 0,
    siteUrl: config.SITE_URL ?? '',
    send: (to, email) => {
      if (!config.SENDER_EMAIL) throw new Error('SENDER_EMAIL is not configured');
      return sendEmail({ from: config.SENDER_EMAIL, configurationSet: config.SES_CONFIGURATION_SET }, to, email);
    },
  };
}

/** A change to the caller's own likeness counts against their hourly limit (429 beyond it). */
export async function limitLikenessChange(caller: AccountCaller): Promise<void> {
  const config = loadConfig(Config);
  if (!config.RATE_LIMITS_TABLE) throw new Error('RATE_LIMITS_TABLE is not configured');
  // The account's id is the caller's `sub`.
  await rateLimiter(documentClient(), config.RATE_LIMITS_TABLE)([ownChangeRule('likeness', caller.sub)]);
}
