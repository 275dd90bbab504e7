import type { GenerationConfig } from '../../../../events/generations';
import { TALENT_NOT_FOUND_MESSAGE, isTalentId } from '../../../../events/talent-values';
import type { TalentStore } from '../../../catalog';
import { ConflictError, NotFoundError } from '../../../shared/errors';
import { log } from '../../../shared/log';

/** The answer to a hand-typed config for a talent whose own model is trained from their photos. */
export const TRAINED_TALENT_CONFIG_MESSAGE =
  "This talent's model is trained from their own photos and generates with the version they approved. Retrain it or roll back to an earlier version under Likeness model trainings.";

/**
 * `PUT /admin/talent/{id}/generation-config`: sets the model (or version) and trigger word; answers
 * it. Only for seeded talent: one accepted from an application is generated with the version of
 * their own model they approved (docs/training.md), and the hand-typed config is refused (409).
 */
export async function setGenerationConfig(store: Pick<TalentStore, 'setHandTypedGenerationConfig'>, id: string, config: GenerationConfig, by: string): Promise<GenerationConfig> {
  const outcome = isTalentId(id) ? await store.setHandTypedGenerationConfig(id, config) : 'not-found';
  if (outcome === 'not-found') throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  if (outcome === 'trained') throw new ConflictError(TRAINED_TALENT_CONFIG_MESSAGE);
  log.info('generation config set', { talentId: id, by, model: config.model, version: config.version });
  return config;
}
