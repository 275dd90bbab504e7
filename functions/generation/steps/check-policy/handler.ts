import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { generationStore } from '../../store';
import { talentStore } from '../../../catalog';
import { GenerationInput, TablesConfig } from '../../input';
import { checkPolicy } from './service';

const config = loadConfig(TablesConfig.extend({ TALENT_TABLE: z.string().min(1) }));

/** Workflow step CheckPolicy: `{ generationId }` -> `{ allowed: true }`, or the error PolicyRefused. */
export async function handler(event: unknown) {
  const { generationId } = GenerationInput.parse(event);
  const doc = documentClient();
  return checkPolicy({ store: generationStore(doc, config.GENERATIONS_TABLE), talent: talentStore(doc, config.TALENT_TABLE), now: () => new Date() }, generationId);
}
