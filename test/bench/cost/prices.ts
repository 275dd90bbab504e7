/**
 * AWS list prices used by the cost model (bench:cost), US East (N. Virginia), on-demand, without
 * free tiers. Each price is an integer number of micro-dollars (1e-6 USD) per `per` units.
 *
 * Read on 2026-11-24 from pages found with the team's search tool (a copy of AWS's own pricing
 * page where `source` names aws.amazon.com, otherwise a third-party summary of it). `verified`
 * says whether the figure was read on an AWS page itself; the others are the commonly quoted
 * figures, to check against the AWS pricing pages before relying on them.
 */
export const PRICES_READ_ON = '2026-11-24';

export interface Price {
  microDollars: number;
  per: number;
  unit: string;
  source: string;
  verified: boolean;
}

export const PRICES = {
  lambdaRequests: {
    microDollars: 200_000,
    per: 1_000_000,
    unit: 'Lambda requests',
    source: 'aws.amazon.com/lambda/pricing ($0.20 per 1M requests; same for Arm)',
    verified: false,
  },
  /** Our functions run on Arm (AppFunction sets ARM_64). First tier (6 billion GB-s a month). */
  lambdaArmGbSeconds: {
    microDollars: 13_333_400,
    per: 1_000_000,
    unit: 'Lambda GB-seconds (Arm)',
    source: 'cloudchipr.com/blog/aws-lambda-pricing ($0.0000133334 per GB-s, Arm, us-east-1)',
    verified: false,
  },
  dynamoWriteRequestUnits: {
    microDollars: 625_000,
    per: 1_000_000,
    unit: 'DynamoDB on-demand write request units',
    source: 'airbyte.com/data-engineering-resources/dynamodb-pricing ($0.625 per million WRU, after the November 2024 on-demand price cut)',
    verified: false,
  },
  dynamoReadRequestUnits: {
    microDollars: 125_000,
    per: 1_000_000,
    unit: 'DynamoDB on-demand read request units',
    source: 'airbyte.com/data-engineering-resources/dynamodb-pricing ($0.125 per million RRU)',
    verified: false,
  },
  s3Tier1Requests: {
    microDollars: 5_000,
    per: 1_000,
    unit: 'S3 Standard PUT, COPY, POST, LIST requests',
    source: 'cloudkaramchari.com on S3 request pricing ($0.005 per 1,000)',
    verified: false,
  },
  s3Tier2Requests: {
    microDollars: 400,
    per: 1_000,
    unit: 'S3 Standard GET, HEAD and other requests',
    source: 'commonly quoted S3 Standard figure ($0.0004 per 1,000); not found on a stored AWS page',
    verified: false,
  },
  s3StandardGbMonth: {
    microDollars: 23_000,
    per: 1,
    unit: 'S3 Standard GB-month (first 50 TB)',
    source: 'commonly quoted S3 Standard figure ($0.023 per GB-month); not found on a stored AWS page',
    verified: false,
  },
  sesEmails: {
    microDollars: 100_000,
    per: 1_000,
    unit: 'SES outbound emails (per recipient)',
    source: 'acecloudinterviews.com SES tutorial ($0.10 per 1,000 emails)',
    verified: false,
  },
  stepFunctionsTransitions: {
    microDollars: 25_000,
    per: 1_000,
    unit: 'Step Functions Standard state transitions',
    source: 'aws.amazon.com/step-functions/pricing ($0.0250 per 1,000 in US East (N. Virginia))',
    verified: true,
  },
  eventBridgeEvents: {
    microDollars: 1_000_000,
    per: 1_000_000,
    unit: 'EventBridge custom events published',
    source: 'commonly quoted EventBridge figure ($1.00 per million custom events); not found on a stored AWS page',
    verified: false,
  },
  httpApiRequests: {
    microDollars: 1_000_000,
    per: 1_000_000,
    unit: 'API Gateway HTTP API requests (first 300M)',
    source: 'awsforengineers.com and apigatewaycost.com ($1.00 per million, first 300 million)',
    verified: false,
  },
} satisfies Record<string, Price>;

export type PriceName = keyof typeof PRICES;

/** Cost in micro-dollars (not rounded: a share of one request costs a fraction of a micro-dollar). */
export const costOf = (price: PriceName, quantity: number): number => (quantity * PRICES[price].microDollars) / PRICES[price].per;
