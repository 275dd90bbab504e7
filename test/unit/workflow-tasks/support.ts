import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { foundingStore, type StoredApplication } from '../../../functions/founding/store';

export const ID = 'app_abcdefghijklmnopqrst';
export const EMAIL = 'ana.lima@example.com';
/** The opaque folder of the application's upload session (its keys never hold the address). */
export const FOLDER = '0123456789abcdef0123456789abcdef';
export const TABLE = 'FoundingApplications';

/** An application as the signup stores it, with overrides. */
export function application(overrides: Partial<StoredApplication> = {}): StoredApplication {
  return {
    id: ID,
    program: 'founding',
    status: 'validating',
    firstName: 'Ana',
    lastName: 'Lima',
    email: EMAIL,
    uploadFolder: FOLDER,
    submittedAt: '2026-02-01T10:00:00.000Z',
    imagePaths: [],
    ...overrides,
  };
}

/** A document client whose calls are recorded; the application item answers GetItem on its key. */
export function mockedStore(app?: StoredApplication) {
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
  const mock = mockClient(doc);
  mock.onAnyCommand().resolves({});
  mock.on(GetCommand, { Key: { pk: `APP#${ID}`, sk: 'APPLICATION' } }).resolves({ Item: app });
  const store = foundingStore(doc, TABLE, () => new Date('2026-02-08T10:00:00.000Z'));
  /**
   * Inputs of every call of one command type. For PutCommand, the puts made inside transactions
   * too, in call order (history entries are put beside a condition check on the application).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read command inputs loosely
  const inputs = (command: new (...args: any[]) => any): any[] => {
    if (command !== PutCommand) return mock.commandCalls(command).map((c) => c.args[0].input);
    return mock
      .calls()
      .map((c) => c.args[0])
      .flatMap((c) =>
        c instanceof PutCommand ? [c.input] : c instanceof TransactWriteCommand ? (c.input.TransactItems ?? []).flatMap((i) => (i.Put ? [i.Put] : [])) : [],
      );
  };
  return { doc, mock, store, inputs };
}

export const conditionFailed = () => Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });

export function quiet() {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
}
