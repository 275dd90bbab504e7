import type * as z from 'zod';
import type { TalentUpdateRequest } from '../../../../events/admin';
import { TALENT_NOT_FOUND_MESSAGE, type Talent } from '../../../../events/talent';
import { NotFoundError } from '../../../shared/errors';
import type { TalentStore } from '../../store';

/** Sets the edited fields of an existing talent and answers the talent as stored afterwards. */
export async function updateTalent(store: TalentStore, id: string, changes: z.output<typeof TalentUpdateRequest>): Promise<Talent> {
  const talent = await store.update(id, changes);
  if (!talent) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  return talent;
}
