import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { foundingStore } from '../../store';
import { loadConfig } from '../../../shared/config';
import { APPLICATION_ID_PATTERN } from '../../keys';
import { recordEmailFailure } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1) }));

const Input = z.object({
  applicationId: z.string().regex(APPLICATION_ID_PATTERN),
  kind: z.enum(['confirmation', 'invalid', 'acceptance', 'rejection', 'reminder']),
  error: z.object({ Error: z.string().optional(), Cause: z.string().optional() }).optional(),
});

/** Workflow step Record*EmailFailure: `{ applicationId, kind, error }` → `{ recorded: true }`. */
export async function handler(event: unknown) {
  return recordEmailFailure(foundingStore(documentClient(), config.APPLICATIONS_TABLE), Input.parse(event));
}
