import * as z from 'zod';
import { RETRYABLE_STEPS } from '../../../../events/founding-values';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { foundingStore } from '../../store';
import { APPLICATION_ID_PATTERN } from '../../keys';
import { recordFailure } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1) }));

const Input = z.object({
  applicationId: z.string().regex(APPLICATION_ID_PATTERN),
  step: z.enum(RETRYABLE_STEPS),
  error: z.object({ Error: z.string().optional(), Cause: z.string().optional() }).optional(),
});

/** Workflow step Record*Failure: `{ applicationId, step, error }` → `{ recorded: true }`. */
export async function handler(event: unknown) {
  return recordFailure(foundingStore(documentClient(), config.APPLICATIONS_TABLE), Input.parse(event));
}
