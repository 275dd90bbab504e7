// What the console's routes that change an exclusive contract (record-exclusive-contract,
// end-exclusive-contract) build from their configuration: the stores, the notices' outbox and
// the talent's address.
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { accountStore } from '../accounts';
import { talentStore } from '../catalog';
import { foundingStore } from '../founding';
import { royaltyStore } from '../royalties';
import { documentClient } from '../shared/clients';
import { OutboxConfig, emailOutbox } from '../shared/email';
import { emailFromApplication } from './contract-notices';
import type { ExclusiveContractDeps } from './exclusive-contracts';

export const ContractChangeConfig = OutboxConfig.extend({
  TALENT_TABLE: z.string().min(1),
  GENERATIONS_TABLE: z.string().min(1),
  ACCOUNTS_TABLE: z.string().min(1),
  APPLICATIONS_TABLE: z.string().min(1),
});

export function contractChangeDeps(config: z.infer<typeof ContractChangeConfig>): ExclusiveContractDeps {
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
