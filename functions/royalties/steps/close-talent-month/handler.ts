import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { EmailConfig, emailSender } from '../../../shared/email';
import { ApplicationNotFoundError, foundingStore } from '../../../founding';
import { capMicrosOfCents } from '../../arithmetic';
import { royaltyStore } from '../../store';
import { talentStore } from '../../../catalog';
import { closeTalentMonth, CloseTalentMonthInput } from './service';

const config = loadConfig(
  EmailConfig.extend({
    GENERATIONS_TABLE: z.string().min(1),
    TALENT_TABLE: z.string().min(1),
    APPLICATIONS_TABLE: z.string().min(1),
    /** The stage's cap on promotional royalties per talent per statement, in whole cents. */
    PROMOTIONAL_ROYALTY_CAP_CENTS: z.coerce.number().int().nonnegative(),
  }),
);
const send = emailSender(config);

/** Step CloseTalentMonth of the RoyaltyClose state machine: `{ talentId, month }` -> `{ talentId, outcome, royaltyCents? }`. */
export async function handler(event: unknown) {
  const doc = documentClient();
  const catalog = talentStore(doc, config.TALENT_TABLE);
  const applications = foundingStore(doc, config.APPLICATIONS_TABLE);
  return closeTalentMonth(
    {
      royalties: royaltyStore(doc, config.GENERATIONS_TABLE),
      talent: async (id) => {
        const found = await catalog.getForGeneration(id);
        if (!found) return undefined;
        const applicationId = found.controls.applicationId;
        return {
          name: found.talent.name,
          royaltyPlan: found.talent.royaltyPlan,
          // The founding application the talent came from holds their address (seeded talent have none).
          email: async () => {
            if (!applicationId) return undefined;
            try {
              return (await applications.getApplication(applicationId)).email;
            } catch (err) {
              if (err instanceof ApplicationNotFoundError) return undefined;
              throw err;
            }
          },
        };
      },
      send,
      siteUrl: config.SITE_URL,
      promotionalCapMicros: capMicrosOfCents(config.PROMOTIONAL_ROYALTY_CAP_CENTS),
      now: () => new Date(),
    },
    CloseTalentMonthInput.parse(event),
  );
}
