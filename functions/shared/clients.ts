import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SFNClient } from '@aws-sdk/client-sfn';

/*
 * One client per service per container, created on first use so a function pays only for
 * the clients it touches. Endpoints come from the SDK's own AWS_ENDPOINT_URL_* variables,
 * which is how the local twin points them at its emulators.
 */
/**
 * DynamoDB answers bursts on a cold on-demand partition with throttling; five attempts (the
 * SDK's default is three) ride it out inside one request instead of answering the person 500.
 */
const DYNAMODB_MAX_ATTEMPTS = 5;

let doc: DynamoDBDocumentClient | undefined;
export function documentClient(): DynamoDBDocumentClient {
  doc ??= DynamoDBDocumentClient.from(new DynamoDBClient({ maxAttempts: DYNAMODB_MAX_ATTEMPTS }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return doc;
}

let events: EventBridgeClient | undefined;
export function eventBridge(): EventBridgeClient {
  events ??= new EventBridgeClient({});
  return events;
}

let ses: SESv2Client | undefined;
export function sesClient(): SESv2Client {
  ses ??= new SESv2Client({});
  return ses;
}

let sfn: SFNClient | undefined;
export function stepFunctions(): SFNClient {
  sfn ??= new SFNClient({});
  return sfn;
}
