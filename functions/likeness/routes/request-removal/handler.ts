import * as z from 'zod';
import { RemovalRequest } from '../../../../events/likeness';
import { AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { loadConfig, positiveIntFromEnv } from '../../../shared/config';
import { sendEmail } from '../../../shared/email';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { requestRemoval, type RemovalDeps } from '../../controls';
import { likenessChangeDeps } from '../../route-deps';

const config = loadConfig(
  AccountTables.extend({
    RATE_LIMITS_TABLE: z.string().min(1),
    REMOVAL_NOTICE_SECONDS: positiveIntFromEnv,
    SENDER_EMAIL: z.string().min(3),
    SES_CONFIGURATION_SET: z.string().optional(),
    SITE_URL: z.url(),
  }),
);
const deps: RemovalDeps = {
  ...likenessChangeDeps(config),
  removalNoticeSeconds: config.REMOVAL_NOTICE_SECONDS,
  siteUrl: config.SITE_URL,
  send: (to, email) => sendEmail({ from: config.SENDER_EMAIL, configurationSet: config.SES_CONFIGURATION_SET }, to, email),
};

/** `POST /me/likeness/removal` (accepted talent): removal after the notice; emails the talent. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const request = event.body ? parseJsonBody(event, RemovalRequest) : {};
  return json(200, await requestRemoval(deps, caller, request));
});
