// A client's daily budget of generations the image model fails (decision 038). Replicate bills a
// failed run and we return the credits, so failures the client's prompts cause are counted per
// client and UTC day on one counter item of the Generations table (expiring by TTL), once per
// generation; the start refuses a client whose day's count has reached the stage's limit.
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { modelFailuresMessage } from '../../events/generation-values';
import { TooManyRequestsError, cancellationReasons } from '../shared/errors';
import { generationKeys } from './keys';

/** `YYYY-MM-DD` of a time, in UTC: the budget's day. */
export const budgetDayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The next 00:00 UTC after `at`: when a spent budget is whole again. */
export function nextUtcMidnight(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}

/** Refuses (429) a client whose model failures today have reached `limit`, saying until when. */
export function checkModelFailures(used: number, limit: number, at: Date): void {
  if (used >= limit) throw new TooManyRequestsError(modelFailuresMessage(limit, nextUtcMidnight(at)));
}

export interface FailureBudget {
  /** The client's model failures counted on the UTC day of `at`. */
  used(accountId: string, at: Date): Promise<number>;
  /**
   * Counts one model failure of a generation on the day of `at`, once however often it is
   * retried (a mark on the generation in the same transaction). False when it was counted already.
   */
  count(accountId: string, generationId: string, at: Date): Promise<boolean>;
}

/** A day's counter is kept one more day after it ends, then DynamoDB's TTL removes it. */
const KEPT_AFTER_DAY_SECONDS = 24 * 60 * 60;

export function failureBudget(doc: DynamoDBDocumentClient, tableName: string): FailureBudget {
  return {
    async used(accountId, at) {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: generationKeys.modelFailures(accountId, budgetDayOf(at)), ConsistentRead: true }));
      return Number(out.Item?.failures ?? 0);
    },
    async count(accountId, generationId, at) {
      const day = budgetDayOf(at);
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: generationKeys.generation(generationId),
                  UpdateExpression: 'SET modelFailureCounted = :day',
                  ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(modelFailureCounted)',
                  ExpressionAttributeValues: { ':day': day },
                },
              },
              {
                Update: {
                  TableName: tableName,
                  Key: generationKeys.modelFailures(accountId, day),
                  UpdateExpression: 'ADD failures :one SET expiresAt = :expires',
                  ExpressionAttributeValues: { ':one': 1, ':expires': Math.floor(nextUtcMidnight(at).getTime() / 1000) + KEPT_AFTER_DAY_SECONDS },
                },
              },
            ],
          }),
        );
        return true;
      } catch (err) {
        if (cancellationReasons(err)?.[0] === 'ConditionalCheckFailed') return false;
        throw err;
      }
    },
  };
}
