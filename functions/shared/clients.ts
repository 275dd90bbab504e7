import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/*
 * One client per service per container, created on first use. Endpoints come from the SDK's own
 * AWS_ENDPOINT_URL_* variables, which is how the local twin points them at its emulators.
 *
 * Each service's client lives in the one module that sends its commands (EventBridge in
 * events.ts, SES in email.ts, Step Functions in workflows.ts, S3 in s3.ts, Secrets Manager in
 * secrets.ts): a bundle keeps every `require` of an SDK package its modules name, so a module
 * naming five clients made every function load five SDK packages at its cold start, used or not
 * (decision 064). This one holds DynamoDB's, which nearly every function uses.
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
