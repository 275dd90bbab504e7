import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../infra/local/emulators/ports';
import { startTwin, type Twin, type TwinOptions } from '../../infra/local/twin';

/** Starts one twin for a test file (free ports, short waits) and stops it afterwards. */
export function useTwin(options: TwinOptions = {}): () => Twin {
  let twin: Twin | undefined;
  beforeAll(async () => {
    twin = await startTwin({ fast: true, ...options });
  }, 120_000);
  afterAll(async () => {
    await twin?.stop();
  }, 60_000);
  return () => {
    if (!twin) throw new Error('the twin did not start');
    return twin;
  };
}

export function documentClient(twin: Twin): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: twin.urls.dynamodb, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } }),
  );
}

/** Every item of a table whose key starts with a prefix. */
export async function itemsWithPrefix(twin: Twin, tablePrefix: string, keyPrefix: string): Promise<Record<string, any>[]> {
  const doc = documentClient(twin);
  const items: Record<string, any>[] = [];
  let start: Record<string, any> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: twin.physicalName(tablePrefix),
        ExclusiveStartKey: start,
        ConsistentRead: true,
        FilterExpression: 'begins_with(pk, :p)',
        ExpressionAttributeValues: { ':p': keyPrefix },
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

export function cognitoClient(twin: Twin): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({ endpoint: twin.urls.cognito, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
}

/** Signs in with a password on the given app client and returns the id token. */
export async function idToken(twin: Twin, email: string, password: string, client: 'web' | 'admin' = 'admin'): Promise<string> {
  const out = await cognitoClient(twin).send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: twin.clientIds[client],
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  return out.AuthenticationResult!.IdToken!;
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}
