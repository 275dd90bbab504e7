import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WaitlistEntry } from '../../events/admin';
import { LIST_PARTITION } from './waitlist-keys';

export interface WaitlistReadDeps {
  doc: DynamoDBDocumentClient;
  tableName: string;
}

/** Every active signup in waitlist order, through the `byPosition` index. */
export async function readWaitlist(deps: WaitlistReadDeps): Promise<WaitlistEntry[]> {
  const entries: WaitlistEntry[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await deps.doc.send(
      new QueryCommand({
        TableName: deps.tableName,
        IndexName: 'byPosition',
        KeyConditionExpression: 'gsi1pk = :list',
        ExpressionAttributeValues: { ':list': LIST_PARTITION },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) entries.push(entryOf(item));
    start = page.LastEvaluatedKey;
  } while (start);
  return entries;
}

function entryOf(item: Record<string, unknown>): WaitlistEntry {
  const position = Number(item.position);
  return {
    id: position,
    position,
    email: String(item.email ?? ''),
    firstName: typeof item.firstName === 'string' ? item.firstName : undefined,
    signupType: typeof item.signupType === 'string' ? item.signupType : undefined,
    newsletter: item.newsletter !== false,
    signedUpAt: String(item.signedUpAt ?? item.claimedAt ?? ''),
    welcome: typeof item.welcome === 'string' ? item.welcome : undefined,
  };
}
