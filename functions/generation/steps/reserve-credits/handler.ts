import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { creditLedger } from '../../../accounts';
import { generationStore } from '../../store';
import { GenerationInput, TablesConfig } from '../../input';
import { reserveCredits } from './service';

const config = loadConfig(TablesConfig.extend({ ACCOUNTS_TABLE: z.string().min(1) }));

/** Workflow step ReserveCredits: `{ generationId }` -> `{ reserved }`. */
export async function handler(event: unknown) {
  const { generationId } = GenerationInput.parse(event);
  const doc = documentClient();
  return reserveCredits({ store: generationStore(doc, config.GENERATIONS_TABLE), ledger: creditLedger(doc, config.ACCOUNTS_TABLE), now: () => new Date() }, generationId);
}
