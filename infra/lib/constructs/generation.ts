import { NestedStack, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket } from 'aws-cdk-lib/aws-s3';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { ACCOUNT_INDEX, CREATED_INDEX } from '../../../functions/stores/generations-keys';
import type { MarketplaceApi } from './http-api';
import type { IdempotencyStore } from './idempotency';
import type { RateLimits } from './rate-limits';

export interface GenerationProps {
  api: MarketplaceApi;
  rateLimits: RateLimits;
  idempotency: IdempotencyStore;
  /** Balances and the ledger the workflow reserves, commits and releases credits on. */
  accountsTable: ITable;
  /** The catalog: a talent's status, likeness controls and generation config. */
  talentTable: ITable;
  /** The site, for license links written into the images. */
  siteUrl: string;
  /** Secrets Manager name of the Replicate API token; without it the stack creates the secret, to be filled in. */
  replicateTokenSecretName?: string;
  logBucket: IBucket;
  retainData: boolean;
}

/**
 * Generation and licensing (docs/generation.md, decision 027): the Generations table, the
 * private images bucket, the state machine that drives Replicate, and their routes. It is a
 * nested stack of its own (decision 026): with its functions and routes the main stack would
 * pass CloudFormation's 500 resources.
 */
export class Generation extends NestedStack {
  readonly table: Table;
  readonly images: Bucket;
  readonly replicateToken: ISecret;

  constructor(scope: Stack, id: string, props: GenerationProps) {
    super(scope, id, { description: 'Image generation through Replicate, credits spending and licenses' });
    this.table = new Table(this, 'GenerationsTable', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: 'expiresAt',
      deletionProtection: props.retainData,
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: ACCOUNT_INDEX,
      partitionKey: { name: 'accountKey', type: AttributeType.STRING },
      sortKey: { name: 'createdAt', type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: CREATED_INDEX,
      partitionKey: { name: 'listKey', type: AttributeType.STRING },
      sortKey: { name: 'createdAt', type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });

    // Delivered images: private, reached only through short-lived presigned URLs.
    this.images = new Bucket(this, 'GeneratedImages', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 'generated-images/',
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: !props.retainData,
    });

    this.replicateToken = props.replicateTokenSecretName
      ? Secret.fromSecretNameV2(this, 'ReplicateToken', props.replicateTokenSecretName)
      : new Secret(this, 'ReplicateToken', {
          description: 'Replicate API token (put the real token here before generating)',
          generateSecretString: { excludePunctuation: true, passwordLength: 40 },
        });

    // --- The workflow: task functions, state machine, webhook, monthly allowance (generation-workflow) ---

    // --- The API routes (generation-api) ---
  }
}
