// An application's history on DynamoDB Local: a step that writes history after the application
// was erased (a workflow still running when the person asked to be forgotten) writes nothing.
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { foundingKeys } from '../../../functions/founding/keys';
import { foundingStore } from '../../../functions/founding/store';
import { fileMarker } from '../../support/marker';
import { documentClient, useTwin } from '../../support/twin';

const twin = useTwin();
const marker = fileMarker('hist');

const historyOf = async (applicationId: string) =>
  (
    await documentClient(twin()).send(
      new QueryCommand({
        TableName: twin().physicalName('FoundingApplicationsTable'),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :h)',
        ExpressionAttributeValues: { ':pk': foundingKeys.applicationPk(applicationId), ':h': 'HISTORY#' },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

describe('application history', () => {
  it('is written while the application exists, and not at all once it is gone', async () => {
    const doc = documentClient(twin());
    const table = twin().physicalName('FoundingApplicationsTable');
    const store = foundingStore(doc, table);
    const present = `app_${marker}_present`;
    const erased = `app_${marker}_erased`;
    await doc.send(new PutCommand({ TableName: table, Item: { ...foundingKeys.application(present), id: present, status: 'pending_review' } }));

    await store.addHistory(present, 'waiting for review');
    expect((await historyOf(present)).map((i) => i.event)).toEqual(['waiting for review']);

    await store.addHistory(erased, 'waiting for review');
    expect(await historyOf(erased)).toEqual([]);
  });
});
