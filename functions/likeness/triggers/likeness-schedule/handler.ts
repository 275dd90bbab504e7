import type { ScheduledEvent } from 'aws-lambda';
import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { sendEmail } from '../../../shared/email';
import { log } from '../../../shared/log';
import { foundingStore } from '../../../founding';
import { royaltyStore } from '../../../royalties';
import { talentStore } from '../../../catalog';
import { emailFromApplication } from '../../contract-notices';
import { runLikenessSchedule } from './service';

const config = loadConfig(
  z.object({
    TALENT_TABLE: z.string().min(1),
    APPLICATIONS_TABLE: z.string().min(1),
    GENERATIONS_TABLE: z.string().min(1),
    SENDER_EMAIL: z.string().min(3),
    SES_CONFIGURATION_SET: z.string().optional(),
    SITE_URL: z.string().min(1),
  }),
);

/** Rule LikenessSchedule, hourly: removals whose notice ended, and exclusive contracts starting or ending. */
export async function handler(event: Partial<ScheduledEvent>): Promise<void> {
  const doc = documentClient();
  const talent = talentStore(doc, config.TALENT_TABLE);
  const emailOf = emailFromApplication(foundingStore(doc, config.APPLICATIONS_TABLE));
  const send = (to: string, email: Parameters<typeof sendEmail>[2]) => sendEmail({ from: config.SENDER_EMAIL, configurationSet: config.SES_CONFIGURATION_SET }, to, email);
  // The later of the rule's time (whole seconds; the twin may fire it as of a later time) and
  // now: a notice that ended between the schedule's tick and this run is carried out too.
  const now = new Date(Math.max(Date.now(), event.time ? Date.parse(event.time) || 0 : 0));
  const result = await runLikenessSchedule(
    {
      talent,
      emailOf,
      send,
      siteUrl: config.SITE_URL,
      freeze: { talent, royalties: royaltyStore(doc, config.GENERATIONS_TABLE), emailOf, send, siteUrl: config.SITE_URL },
    },
    now,
  );
  log.info('likeness schedule ran', { ...result });
}
