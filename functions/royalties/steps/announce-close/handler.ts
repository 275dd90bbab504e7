import * as z from 'zod';
import { loadConfig } from '../../../shared/config';
import { publish } from '../../../shared/events';
import { announceClose, AnnounceCloseInput } from './service';

const config = loadConfig(z.object({ EVENT_BUS_NAME: z.string().min(1) }));

/** Step AnnounceClose of the RoyaltyClose state machine: `{ month }` -> `{ month, announced }`. */
export async function handler(event: unknown) {
  return announceClose({ publish: (type, detail) => publish(config.EVENT_BUS_NAME, type, detail) }, AnnounceCloseInput.parse(event));
}
