import * as path from 'node:path';
import { Duration, RemovalPolicy, Stack, type Size } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { Architecture, CfnFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { METRICS_NAMESPACE_ENV } from '../../../events/metrics';
import { EXTERNAL_MODULES, NODE_TARGET } from './bundling';
import type { EmailSending } from './email';
import { metricsNamespace } from './metrics';

import { ENTRY_METADATA, NODE_MODULES_METADATA, REPO_ROOT } from './template-names';

export { ENTRY_METADATA, REPO_ROOT };

export interface AppFunctionProps {
  /** Handler source, relative to the repository root (exports `handler`). */
  entry: string;
  description: string;
  environment?: Record<string, string>;
  timeout?: Duration;
  memorySize?: number;
  /** Packages installed into the bundle's node_modules instead of bundled (native code, e.g. sharp). */
  nodeModules?: string[];
  /** /tmp size (default 512 MiB). */
  ephemeralStorageSize?: Size;
  /** Instances reserved for (and at most run by) this function; unset: the account's shared pool. */
  reservedConcurrentExecutions?: number;
}

/** Construct id of the one policy, shared by every function's role, that lets it send X-Ray traces. */
export const XRAY_WRITE_POLICY_ID = 'XRayTraceWrite';

/** The stack's X-Ray write policy, created by the first function that needs it. */
function xrayWritePolicy(scope: Construct): ManagedPolicy {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild(XRAY_WRITE_POLICY_ID) as ManagedPolicy | undefined;
  return (
    existing ??
    new ManagedPolicy(stack, XRAY_WRITE_POLICY_ID, {
      description: 'Lets the marketplace functions send X-Ray trace segments',
      statements: [new PolicyStatement({ actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], resources: ['*'] })],
    })
  );
}

/** DynamoDB actions a function may be granted; bindings list exactly the ones it calls. */
export type TableAction =
  | 'GetItem'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'Query'
  | 'Scan'
  | 'BatchGetItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem';

/** S3 object actions a function may be granted on a key pattern. */
export type S3ObjectAction = 'GetObject' | 'PutObject' | 'DeleteObject';

/**
 * A Lambda function built from one handler file. Bindings set the environment variable and
 * the narrowest grant together, so a function can reach only what it was bound to.
 */
export class AppFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // An own role instead of the AWS managed basic-execution policy: it may write its own logs only.
    const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    // Active X-Ray tracing; the write grant is one shared policy instead of a statement in each
    // function's own policy, which lists only the data it may reach.
    role.addManagedPolicy(xrayWritePolicy(scope));
    super(scope, id, {
      role,
      entry: path.join(REPO_ROOT, props.entry),
      handler: 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 256,
      timeout: props.timeout ?? Duration.seconds(10),
      ephemeralStorageSize: props.ephemeralStorageSize,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      // Where functions/shared/log.ts writes the failure metrics the alarms watch (decision 041).
      environment: { [METRICS_NAMESPACE_ENV]: metricsNamespace(scope), ...props.environment },
      depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
      projectRoot: REPO_ROOT,
      bundling: {
        target: NODE_TARGET,
        format: OutputFormat.CJS,
        minify: true,
        sourceMap: false,
        externalModules: EXTERNAL_MODULES,
        ...(props.nodeModules?.length
          ? {
              nodeModules: props.nodeModules,
              // Installed for the function's platform (Graviton, glibc), not the deploying
              // machine's: native packages such as sharp pick their binary by these.
              environment: { npm_config_os: 'linux', npm_config_cpu: 'arm64', npm_config_libc: 'glibc' },
            }
          : {}),
      },
      logGroup,
    });
    (this.node.defaultChild as CfnFunction).tracingConfig = { mode: 'Active' };
    (this.node.defaultChild as CfnFunction).addMetadata(ENTRY_METADATA, props.entry);
    if (props.nodeModules?.length) (this.node.defaultChild as CfnFunction).addMetadata(NODE_MODULES_METADATA, props.nodeModules);
  }

  /**
   * Grants exactly the listed actions on the table, and on its indexes only for Query/Scan
   * (`indexes: false` when the function reads the base table only, or the table has none).
   */
  bindTable(table: ITable, envName: string, actions: TableAction[], options: { indexes?: boolean } = {}): this {
    this.addEnvironment(envName, table.tableName);
    const readsIndexes = (options.indexes ?? true) && actions.some((a) => a === 'Query' || a === 'Scan');
    this.addToRolePolicy(
      new PolicyStatement({
        actions: actions.map((a) => `dynamodb:${a}`),
        resources: readsIndexes ? [table.tableArn, `${table.tableArn}/index/*`] : [table.tableArn],
      }),
    );
    return this;
  }

  /**
   * Lets the function send our emails: the sender address, the configuration set every email
   * names, the site the emails link to, and `ses:SendEmail` from our identity with that set only.
   */
  bindEmail(email: EmailSending): this {
    this.addEnvironment('SENDER_EMAIL', email.senderEmail);
    this.addEnvironment('SES_CONFIGURATION_SET', email.configurationSet.configurationSetName);
    this.addEnvironment('SITE_URL', email.siteUrl);
    email.grantSend(this);
    return this;
  }

  bindBus(bus: IEventBus, envName = 'EVENT_BUS_NAME'): this {
    this.addEnvironment(envName, bus.eventBusName);
    bus.grantPutEventsTo(this);
    return this;
  }

  /**
   * Grants exactly the listed object actions on keys matching `keys` (e.g. `pending/*`), and
   * with `listPrefix` s3:ListBucket limited to that prefix (so a missing key answers 404, not 403).
   */
  bindBucketObjects(bucket: IBucket, envName: string, actions: S3ObjectAction[], keys: string, options: { listPrefix?: string } = {}): this {
    this.addEnvironment(envName, bucket.bucketName);
    this.addToRolePolicy(new PolicyStatement({ actions: actions.map((a) => `s3:${a}`), resources: [bucket.arnForObjects(keys)] }));
    if (options.listPrefix !== undefined) {
      this.addToRolePolicy(
        new PolicyStatement({
          actions: ['s3:ListBucket'],
          resources: [bucket.bucketArn],
          conditions: { StringLike: { 's3:prefix': [`${options.listPrefix}*`] } },
        }),
      );
    }
    return this;
  }
}
