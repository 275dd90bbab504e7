import { isTalentId, TALENT_NOT_FOUND_MESSAGE, type Talent } from '../../../../events/talent';
import { NotFoundError } from '../../../shared/errors';
import type { TalentStore } from '../../store';

/** `GET /admin/talent/{id}`: one talent, whatever its status; 404 for an id that names none. */
export async function talentForAdmin(store: Pick<TalentStore, 'get'>, id: string): Promise<Talent> {
  if (!isTalentId(id)) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  const talent = await store.get(id);
  if (!talent) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  return talent;
}
