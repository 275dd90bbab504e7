import { createHash, timingSafeEqual } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TooManyRequestsError, isConditionFailure } from './errors';
import type { HttpEvent } from './http';
import { ORIGIN_VERIFY_ENV, ORIGIN_VERIFY_HEADER } from '../../events/resource-names';

/**
 * One limit on a free action: at most `limit` hits per `windowSeconds` for one subject (an IP
 * address, an email address, an upload session). `message` is what the caller is told when it
 * is used up; it names the limit, never the subject.
 */
export interface RateRule {
  /** The counter's name, e.g. `early-signup.ip`. */
  name: string;
  /** Who is counted. Stored only as a hash, so no address or IP reaches the table. */
  subject: string;
  limit: number;
  windowSeconds: number;
  message: string;
}

/**
 * Counts one hit against every rule, in order, and throws `TooManyRequestsError` (429) with the
 * first rule that is used up. Each rule is one conditional write on a fixed-window counter
 * (never a count followed by an insert), so concurrent requests cannot exceed a limit.
 * `cost` counts a request as several hits (a batch of upload URLs counts each URL).
 */
export type RateLimiter = (rules: RateRule[], cost?: number) => Promise<void>;

/** The counter's key: rule name, hashed subject and window start; no personal data. */
export function counterKey(rule: RateRule, now: Date): { pk: string; windowStart: number } {
  const windowStart = Math.floor(now.getTime() / 1000 / rule.windowSeconds) * rule.windowSeconds;
  const subject = createHash('sha256').update(rule.subject.trim().toLowerCase()).digest('base64url').slice(0, 22);
  return { pk: `${rule.name}#${subject}#${windowStart}`, windowStart };
}

/** The limiter over the `RateLimits` table (infra/lib/platform/transient-records.ts); counters expire by TTL. */
export function rateLimiter(doc: DynamoDBDocumentClient, tableName: string, now: () => Date = () => new Date()): RateLimiter {
  return async (rules, cost = 1) => {
    const at = now();
    for (const rule of rules) {
      if (cost > rule.limit) throw new TooManyRequestsError(rule.message);
      const { pk, windowStart } = counterKey(rule, at);
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk },
            UpdateExpression: 'SET #hits = if_not_exists(#hits, :zero) + :cost, expiresAt = :expires',
            ConditionExpression: 'attribute_not_exists(#hits) OR #hits <= :room',
            ExpressionAttributeNames: { '#hits': 'hits' },
            ExpressionAttributeValues: { ':zero': 0, ':cost': cost, ':room': rule.limit - cost, ':expires': windowStart + rule.windowSeconds + 3600 },
          }),
        );
      } catch (err) {
        if (isConditionFailure(err)) throw new TooManyRequestsError(rule.message);
        throw err;
      }
    }
  };
}

/** The same limiter in memory, for unit tests of services. */
export function inMemoryRateLimiter(now: () => Date = () => new Date()): RateLimiter & { hits: Map<string, number> } {
  const hits = new Map<string, number>();
  const limiter = async (rules: RateRule[], cost = 1) => {
    for (const rule of rules) {
      const { pk } = counterKey(rule, now());
      const used = hits.get(pk) ?? 0;
      if (used + cost > rule.limit) throw new TooManyRequestsError(rule.message);
      hits.set(pk, used + cost);
    }
  };
  return Object.assign(limiter, { hits });
}

/** A limiter that never refuses, for services whose tests are not about limits. */
export const noRateLimit: RateLimiter = async () => {};

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The caller's IP address. A request that came through our CloudFront distribution carries
 * the origin-verify secret, and there `cloudfront-viewer-address` (`ip:port`, set by CloudFront,
 * which overwrites any value the client sent) is the viewer's address. Any other request (one
 * sent to the API's own endpoint, around the distribution) is known by the address API Gateway
 * saw, so a script cannot choose its address by sending the header itself.
 */
export function clientIpOf(event: HttpEvent, secret: string | undefined = process.env[ORIGIN_VERIFY_ENV]): string {
  const viewer = event.headers?.['cloudfront-viewer-address'];
  const proof = event.headers?.[ORIGIN_VERIFY_HEADER];
  if (viewer && secret && proof && sameSecret(proof, secret)) return viewer.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return event.requestContext?.http?.sourceIp ?? 'unknown';
}
