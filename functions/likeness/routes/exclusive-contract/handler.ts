import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { ExclusiveContractRequest } from '../../../../events/likeness';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { OutboxConfig, emailOutbox } from '../../../shared/email';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { emailFromApplication } from '../../contract-notices';
import { accountStore } from '../../../accounts';
import { foundingStore } from '../../../founding';
import { royaltyStore } from '../../../royalties';
import { talentStore } from '../../../catalog';
import { endExclusiveContract, getExclusiveContract, recordExclusiveContract, type ExclusiveContractDeps } from './service';

const config = loadConfig(
  OutboxConfig.extend({
    TALENT_TABLE: z.string().min(1),
    GENERATIONS_TABLE: z.string().min(1),
    ACCOUNTS_TABLE: z.string().min(1),
    APPLICATIONS_TABLE: z.string().min(1),
  }),
);

function deps(): ExclusiveContractDeps {
  const doc = documentClient();
  return {
    talent: talentStore(doc, config.TALENT_TABLE),
    royalties: royaltyStore(doc, config.GENERATIONS_TABLE),
    accounts: accountStore(doc, config.ACCOUNTS_TABLE),
    emailOf: emailFromApplication(foundingStore(doc, config.APPLICATIONS_TABLE)),
    outbox: emailOutbox(doc, config),
    siteUrl: config.SITE_URL,
    newId: randomUUID,
  };
}

/**
 * `GET|POST|DELETE /admin/talent/{id}/exclusive-contract` (admins): a talent's exclusive
 * contract (docs/royalties.md#exclusive-contracts). POST records one (ExclusiveContractRequest;
 * 201), DELETE ends it early; every answer is the ExclusiveContractResponse as it stands afterwards.
 */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const id = event.pathParameters?.id ?? '';
  const who = caller.email ?? caller.sub;
  const now = new Date();
  switch (event.requestContext.http.method) {
    case 'POST':
      return json(201, await recordExclusiveContract(deps(), id, parseJsonBody(event, ExclusiveContractRequest), who, now));
    case 'DELETE':
      return json(200, await endExclusiveContract(deps(), id, who, now));
    default:
      return json(200, await getExclusiveContract(deps(), id, now));
  }
});
