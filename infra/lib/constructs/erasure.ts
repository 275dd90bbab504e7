import { RemovalPolicy } from 'aws-cdk-lib';
import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import { AttributeType, BillingMode, Table, TableEncryption, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { PENDING_PREFIX } from '../../../events/founding';
import { AppFunction } from '../app-function';
import type { MarketplaceApi } from './http-api';

export interface ErasureProps {
  api: MarketplaceApi;
  waitlistTable: ITable;
  messagesTable: ITable;
  applicationsTable: ITable;
  idempotencyTable: ITable;
  /** Profiles, credits and audit of accounts (found by the email index). */
  accountsTable: ITable;
  photosBucket: IBucket;
  userPool: IUserPool;
  retainData: boolean;
}

/**
 * Erasure of a person's data by email (GDPR Art. 17, decision 019): the admin route and its
 * function, which may scan and delete in every table that holds personal data, delete photos
 * under the two photo prefixes and delete user accounts; and the table of erasure records
 * (a hash of the address, when, by whom, what was removed).
 */
export class Erasure extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: ErasureProps) {
    super(scope, id);
    this.table = new Table(this, 'RecordsTable', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.retainData,
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    const fn = new AppFunction(this, 'ErasePerson', {
      entry: 'functions/console/routes/erase-person/handler.ts',
      description: 'POST /admin/erasures: erases a person\'s data everywhere by email and records it (admins only)',
      environment: { USER_POOL_ID: props.userPool.userPoolId },
    })
      .bindTable(props.waitlistTable, 'WAITLIST_TABLE', ['Scan', 'DeleteItem'], { indexes: false })
      .bindTable(props.messagesTable, 'MESSAGES_TABLE', ['Scan', 'DeleteItem'], { indexes: false })
      .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['Scan', 'Query', 'DeleteItem'], { indexes: false })
      .bindTable(props.idempotencyTable, 'IDEMPOTENCY_TABLE', ['Scan', 'DeleteItem'], { indexes: false })
      .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['Query', 'DeleteItem'], { indexes: true })
      .bindTable(this.table, 'ERASURES_TABLE', ['Scan', 'PutItem'], { indexes: false })
      .bindBucketObjects(props.photosBucket, 'PHOTOS_BUCKET', ['DeleteObject'], 'applications/*');
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [props.photosBucket.arnForObjects(`${PENDING_PREFIX}*`)] }));
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [props.photosBucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': ['applications/*', `${PENDING_PREFIX}*`] } },
      }),
    );
    fn.addToRolePolicy(new PolicyStatement({ actions: ['cognito-idp:ListUsers', 'cognito-idp:AdminDeleteUser'], resources: [props.userPool.userPoolArn] }));
    props.api.adminRoute('/admin/erasures', HttpMethod.POST, fn, 'ErasePerson');
  }
}
