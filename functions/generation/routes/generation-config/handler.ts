import * as z from 'zod';
import { GenerationConfig } from '../../../../events/generations';
import { TALENT_NOT_FOUND_MESSAGE, isTalentId } from '../../../../events/talent-values';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { ConflictError, NotFoundError } from '../../../shared/errors';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { log } from '../../../shared/log';
import { talentStore } from '../../../catalog';

const config = loadConfig(z.object({ TALENT_TABLE: z.string().min(1) }));

/** The answer to a talent that has no generation config yet. */
export const NO_GENERATION_CONFIG_MESSAGE = 'This talent has no generation config yet.';

/** The answer to a hand-typed config for a talent whose own model is trained from their photos. */
export const TRAINED_TALENT_CONFIG_MESSAGE =
  "This talent's model is trained from their own photos and generates with the version they approved. Retrain it or roll back to an earlier version under Likeness model trainings.";

/**
 * `GET /admin/talent/{id}/generation-config` (admins): the model (or version) and trigger word a
 * talent is generated with; 404 when the talent is unknown or has none.
 * `PUT` the same path with a GenerationConfig: sets it; answers it. Admins only. Only for seeded
 * talent: one accepted from an application is generated with the version of their own model they
 * approved (docs/training.md), and the hand-typed config is refused (409).
 */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const id = event.pathParameters?.id ?? '';
  const store = talentStore(documentClient(), config.TALENT_TABLE);
  if (event.requestContext.http.method === 'PUT') {
    const body = parseJsonBody(event, GenerationConfig);
    const outcome = isTalentId(id) ? await store.setHandTypedGenerationConfig(id, body) : 'not-found';
    if (outcome === 'not-found') throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
    if (outcome === 'trained') throw new ConflictError(TRAINED_TALENT_CONFIG_MESSAGE);
    log.info('generation config set', { talentId: id, by: caller.sub, model: body.model, version: body.version });
    return json(200, body);
  }
  const found = isTalentId(id) ? await store.getForGeneration(id) : undefined;
  if (!found) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  if (!found.controls.generation) throw new NotFoundError(NO_GENERATION_CONFIG_MESSAGE);
  return json(200, found.controls.generation);
});
