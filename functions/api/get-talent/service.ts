import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { TALENT_NOT_FOUND_MESSAGE, isTalentId, type TalentResponse } from '../../../events/talent';
import { NotFoundError } from '../../shared/errors';
import { publicTalentOf, type CatalogDeps } from '../../shared/talent-catalog';

/**
 * One active talent by id. An id that is not a slug cannot name a talent, so it is answered
 * like an unknown one without reading the table; a hidden talent is answered the same way, so
 * the API does not reveal that it exists.
 */
export async function getTalent(deps: CatalogDeps, id: string | undefined): Promise<TalentResponse> {
  if (!id || !isTalentId(id)) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  const out = await deps.doc.send(new GetCommand({ TableName: deps.tableName, Key: { id } }));
  const talent = publicTalentOf(out.Item);
  if (!talent) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  return { talent };
}
