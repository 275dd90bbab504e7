import * as z from 'zod';
import { RemovalRequest } from '../../../../events/likeness';
import { AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { loadConfig, positiveIntFromEnv } from '../../../shared/config';
import { documentClient } from '../../../shared/clients';
import { OutboxConfig, emailOutbox } from '../../../shared/email';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { requestRemoval, type RemovalDeps } from './service';
import { likenessChangeDeps } from '../../route-deps';

const config = loadConfig(
  AccountTables.extend({
    ...OutboxConfig.shape,
    RATE_LIMITS_TABLE: z.string().min(1),
    REMOVAL_NOTICE_SECONDS: positiveIntFromEnv,
  }),
);
const deps: RemovalDeps = {
  ...likenessChangeDeps(config),
  removalNoticeSeconds: config.REMOVAL_NOTICE_SECONDS,
  siteUrl: config.SITE_URL,
  outbox: emailOutbox(documentClient(), config),
};

/** `POST /me/likeness/removal` (accepted talent): removal after the notice; emails the talent (through the outbox). */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const request = event.body ? parseJsonBody(event, RemovalRequest) : {};
  return json(200, await requestRemoval(deps, caller, request));
});
