import type { ScheduledEvent } from 'aws-lambda';
import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { OutboxConfig, emailOutbox } from '../../../shared/email';
import { publish } from '../../../shared/events';
import { log } from '../../../shared/log';
import { LIKENESS_REMOVED } from '../../../../events/likeness-events';
import { foundingStore } from '../../../founding';
import { royaltyStore } from '../../../royalties';
import { talentStore } from '../../../catalog';
import { emailFromApplication } from '../../contract-notices';
import { runLikenessSchedule } from './service';

const config = loadConfig(
  OutboxConfig.extend({
    TALENT_TABLE: z.string().min(1),
    APPLICATIONS_TABLE: z.string().min(1),
    GENERATIONS_TABLE: z.string().min(1),
    EVENT_BUS_NAME: z.string().min(1),
  }),
);

/**
 * Rule LikenessSchedule, hourly: removals whose notice ended (each published as
 * `Likeness.Removed`), exclusive contracts starting or ending, and every email waiting in the outbox.
 */
export async function handler(event: Partial<ScheduledEvent>): Promise<void> {
  const doc = documentClient();
  const talent = talentStore(doc, config.TALENT_TABLE);
  const emailOf = emailFromApplication(foundingStore(doc, config.APPLICATIONS_TABLE));
  const outbox = emailOutbox(doc, config);
  // The later of the rule's time (whole seconds; the twin may fire it as of a later time) and
  // now: a notice that ended between the schedule's tick and this run is carried out too.
  const now = new Date(Math.max(Date.now(), event.time ? Date.parse(event.time) || 0 : 0));
  const result = await runLikenessSchedule(
    {
      talent,
      emailOf,
      outbox,
      siteUrl: config.SITE_URL,
      contracts: { talent, royalties: royaltyStore(doc, config.GENERATIONS_TABLE), emailOf, outbox, siteUrl: config.SITE_URL },
      publishRemoved: (detail) => publish(config.EVENT_BUS_NAME, LIKENESS_REMOVED, detail),
    },
    now,
  );
  const { emails, ...done } = result;
  log.info('likeness schedule ran', { ...done, emailsSent: emails.sent, emailsFailed: emails.failed, emailsOverdue: emails.overdue });
}
