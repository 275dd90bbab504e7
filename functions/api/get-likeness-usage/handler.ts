import * as z from 'zod';
import { requireRole } from '../../shared/auth';
import { documentClient } from '../../shared/clients';
import { loadConfig } from '../../shared/config';
import { httpHandler, json } from '../../shared/http';
import { accountStore } from '../../stores/accounts';
import { foundingStore } from '../../stores/founding';
import { generationStore } from '../../stores/generations';
import { talentStore } from '../../stores/talent';
import { likenessUsage } from './service';

const config = loadConfig(
  z.object({
    ACCOUNTS_TABLE: z.string().min(1),
    APPLICATIONS_TABLE: z.string().min(1),
    TALENT_TABLE: z.string().min(1),
    GENERATIONS_TABLE: z.string().min(1),
  }),
);

/** `GET /me/likeness-usage` (accepted talent): how many images were made with the likeness, by month. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  const usage = await likenessUsage(
    {
      accounts: accountStore(doc, config.ACCOUNTS_TABLE),
      standing: { founding: foundingStore(doc, config.APPLICATIONS_TABLE), talent: talentStore(doc, config.TALENT_TABLE) },
      generations: generationStore(doc, config.GENERATIONS_TABLE),
    },
    caller,
  );
  return json(200, usage);
});
