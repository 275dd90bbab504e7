import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod';
import type { AdminMessage, ListResponse, MessageListQuery } from '../../../events/admin';
import { matchesQuery, sortAndPage } from '../../shared/admin-list';
import { adminMessageOf } from '../../shared/admin-messages';

export interface MessagesDeps {
  doc: DynamoDBDocumentClient;
  tableName: string;
}

/** Contact messages (the table also holds per-sender counters, which are skipped). */
export async function listMessages(deps: MessagesDeps, query: z.output<typeof MessageListQuery>): Promise<ListResponse<AdminMessage>> {
  const all: AdminMessage[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await deps.doc.send(
      new ScanCommand({
        TableName: deps.tableName,
        FilterExpression: 'begins_with(pk, :message)',
        ExpressionAttributeValues: { ':message': 'MESSAGE#' },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) all.push(adminMessageOf(item));
    start = page.LastEvaluatedKey;
  } while (start);
  const matching = all.filter(
    (m) => matchesQuery(query.q, m.firstName, m.lastName, `${m.firstName} ${m.lastName}`, m.email, m.subject) && (query.status === undefined || m.status === query.status),
  );
  return sortAndPage(matching, query, (m, key) => m[key]);
}
