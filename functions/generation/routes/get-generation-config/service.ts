import type { GenerationConfig } from '../../../../events/generations';
import { TALENT_NOT_FOUND_MESSAGE, isTalentId } from '../../../../events/talent-values';
import type { TalentStore } from '../../../catalog';
import { NotFoundError } from '../../../shared/errors';

/** The answer to a talent that has no generation config yet. */
export const NO_GENERATION_CONFIG_MESSAGE = 'This talent has no generation config yet.';

/** `GET /admin/talent/{id}/generation-config`: the model (or version) and trigger word a talent is generated with; 404 when the talent is unknown or has none. */
export async function getGenerationConfig(store: Pick<TalentStore, 'getForGeneration'>, id: string): Promise<GenerationConfig> {
  const found = isTalentId(id) ? await store.getForGeneration(id) : undefined;
  if (!found) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  if (!found.controls.generation) throw new NotFoundError(NO_GENERATION_CONFIG_MESSAGE);
  return found.controls.generation;
}
