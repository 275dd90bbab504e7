import type { ScheduledEvent } from 'aws-lambda';
import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { reportStore } from '../../store';
import { checkOverdue } from './service';

const config = loadConfig(z.object({ REPORTS_TABLE: z.string().min(1) }));

/** Scheduled (ReportsOverdueCheck): flags the cases past their due time. */
export const handler = async (event?: Partial<ScheduledEvent>) => {
  // The later of the rule's time (the twin may fire it as of a later time) and the clock.
  const time = new Date(Math.max(Date.now(), event?.time ? Date.parse(event.time) || 0 : 0));
  return checkOverdue({ store: reportStore(documentClient(), config.REPORTS_TABLE), now: () => time });
};
