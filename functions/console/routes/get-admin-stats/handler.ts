import * as z from 'zod';
import { DEFAULT_WAITLIST_CAPACITY } from '../../../../events/product';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig, positiveIntFromEnv } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { foundingStore } from '../../../founding';
import { generationStore } from '../../../generation';
import { messageStore } from '../../../contact';
import { reportStore } from '../../../reports';
import { royaltyStore } from '../../../royalties';
import { waitlistStore } from '../../../waitlist';
import { adminStats } from './service';

const config = loadConfig(
  z.object({
    WAITLIST_TABLE: z.string().min(1),
    WAITLIST_CAPACITY: positiveIntFromEnv.default(DEFAULT_WAITLIST_CAPACITY),
    APPLICATIONS_TABLE: z.string().min(1),
    MESSAGES_TABLE: z.string().min(1),
    GENERATIONS_TABLE: z.string().min(1),
    REPORTS_TABLE: z.string().min(1),
  }),
);

/** `GET /admin/stats`: the figures of the console's dashboard. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const doc = documentClient();
  const stats = await adminStats({
    waitlist: waitlistStore(doc, config.WAITLIST_TABLE),
    waitlistCapacity: config.WAITLIST_CAPACITY,
    applications: foundingStore(doc, config.APPLICATIONS_TABLE),
    messages: messageStore(doc, config.MESSAGES_TABLE),
    generations: generationStore(doc, config.GENERATIONS_TABLE),
    royalties: royaltyStore(doc, config.GENERATIONS_TABLE),
    reports: reportStore(doc, config.REPORTS_TABLE),
    now: () => new Date(),
  });
  return json(200, stats);
});
