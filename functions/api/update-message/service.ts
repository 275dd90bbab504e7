import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AdminMessage, MessageUpdateRequest } from '../../../events/admin';
import { adminMessageOf } from '../../shared/admin-messages';
import { messageKey } from '../../shared/contact-keys';
import { NotFoundError } from '../../shared/errors';

export interface UpdateMessageDeps {
  doc: DynamoDBDocumentClient;
  tableName: string;
  now?: () => Date;
}

/** Marks a message handled (recording who and when) or new again. */
export async function updateMessage(deps: UpdateMessageDeps, id: string, req: MessageUpdateRequest, by: string): Promise<AdminMessage> {
  const at = (deps.now ?? (() => new Date()))().toISOString();
  try {
    const out = await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: { pk: messageKey(id) },
        UpdateExpression: req.handled ? 'SET #status = :handled, handledAt = :at, handledBy = :by' : 'SET #status = :new REMOVE handledAt, handledBy',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: req.handled ? { ':handled': 'handled', ':at': at, ':by': by } : { ':new': 'new' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return adminMessageOf(out.Attributes ?? {});
  } catch (err) {
    if ((err as Error)?.name === 'ConditionalCheckFailedException') throw new NotFoundError('Message not found.');
    throw err;
  }
}
