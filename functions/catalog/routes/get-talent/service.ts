import { TALENT_NOT_FOUND_MESSAGE, isTalentId, type TalentResponse } from '../../../../events/talent';
import { NotFoundError } from '../../../shared/errors';
import type { TalentStore } from '../../store';

/**
 * One active talent by id. An id that is not a slug cannot name a talent, so it is answered
 * like an unknown one without reading the table; a hidden talent is answered the same way, so
 * the API does not reveal that it exists.
 */
export async function getTalent(store: TalentStore, id: string | undefined): Promise<TalentResponse> {
  if (!id || !isTalentId(id)) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  const talent = await store.getPublic(id);
  if (!talent) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  return { talent };
}
