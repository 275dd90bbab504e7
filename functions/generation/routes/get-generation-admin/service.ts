import { GENERATION_ID_PATTERN, GENERATION_NOT_FOUND_MESSAGE } from '../../../../events/generation-values';
import type { AdminGeneration } from '../../../../events/generations';
import { NotFoundError } from '../../../shared/errors';
import type { GenerationStore } from '../../store';
import { adminGenerationView, type ImageSigner } from '../../views';

/** `GET /admin/generations/{id}`: the generation with the workflow's steps, prediction id, credits and the client. */
export async function generationForAdmin(deps: { generations: Pick<GenerationStore, 'get'>; signer: Pick<ImageSigner, 'view'> }, id: string): Promise<AdminGeneration> {
  const record = GENERATION_ID_PATTERN.test(id) ? await deps.generations.get(id) : undefined;
  if (!record) throw new NotFoundError(GENERATION_NOT_FOUND_MESSAGE);
  return adminGenerationView(record, deps.signer);
}
