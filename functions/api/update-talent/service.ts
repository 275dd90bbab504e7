import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod';
import type { TalentUpdateRequest } from '../../../events/admin';
import { Talent, TALENT_NOT_FOUND_MESSAGE } from '../../../events/talent';
import { NotFoundError } from '../../shared/errors';

export interface UpdateTalentDeps {
  doc: DynamoDBDocumentClient;
  tableName: string;
}

/**
 * Sets the edited fields of an existing talent (never creates one: the condition requires the
 * item) and answers the talent as stored afterwards.
 */
export async function updateTalent(deps: UpdateTalentDeps, id: string, changes: z.output<typeof TalentUpdateRequest>): Promise<Talent> {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const names = Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k]));
  const values = Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v]));
  try {
    const out = await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: { id },
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(id)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Talent.parse(out.Attributes);
  } catch (err) {
    if ((err as Error)?.name === 'ConditionalCheckFailedException') throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
    throw err;
  }
}
