import * as z from 'zod';
import { FOUNDING_SPOTS } from '../../../../events/founding';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { foundingStore } from '../../store';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1) }));

/** `GET /founding-spots` → `{ total: 30, taken, left }`, from the counter the allocation updates (`taken < 30`). */
export const handler = httpHandler(async () => {
  const taken = Math.min(await foundingStore(documentClient(), config.APPLICATIONS_TABLE).foundingSpotsTaken(), FOUNDING_SPOTS);
  return json(200, { total: FOUNDING_SPOTS, taken, left: FOUNDING_SPOTS - taken });
});
