import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { talentStore } from '../../../catalog';
import { CloseInput, planClose } from './service';

const config = loadConfig(z.object({ TALENT_TABLE: z.string().min(1) }));

/** The execution's input, as the state machine passes it. */
const Step = z.object({ input: CloseInput });

/** Step PlanClose of the RoyaltyClose state machine: `{ input }` (a Scheduled Event or `{ month }`) -> `{ month, talentIds }`. */
export async function handler(event: unknown) {
  const talent = talentStore(documentClient(), config.TALENT_TABLE);
  return planClose({ talentIds: async () => (await talent.listAll()).map((t) => t.id), now: () => new Date() }, Step.parse(event).input);
}
