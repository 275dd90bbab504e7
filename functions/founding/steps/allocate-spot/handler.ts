import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { foundingStore } from '../../store';
import { loadConfig } from '../../../shared/config';
import { APPLICATION_ID_PATTERN } from '../../keys';
import { allocateSpot } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1) }));

const Input = z.object({ applicationId: z.string().regex(APPLICATION_ID_PATTERN) });

/** Workflow step AllocateSpot: `{ applicationId }` → `{ founding, spotNumber? }`. */
export async function handler(event: unknown) {
  const { applicationId } = Input.parse(event);
  return allocateSpot({ store: foundingStore(documentClient(), config.APPLICATIONS_TABLE) }, applicationId);
}
