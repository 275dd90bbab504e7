import { RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, type BucketProps, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

export interface PrivateBucketProps
  extends Omit<BucketProps, 'blockPublicAccess' | 'encryption' | 'enforceSSL' | 'removalPolicy' | 'autoDeleteObjects' | 'serverAccessLogsBucket' | 'serverAccessLogsPrefix'> {
  /** Keep the bucket and its objects when the stack is deleted (stage config `retainData`); otherwise both go with it. */
  retain: boolean;
  /** Where S3 writes this bucket's access logs: the stack's log bucket, under a prefix of its own. */
  accessLogs?: { bucket: IBucket; prefix: string };
}

/**
 * Every bucket of ours: no public access, encrypted with S3-managed keys, TLS only, kept or
 * emptied and removed with the stack as `retain` says. Objects are reached through presigned
 * URLs, grants of our functions, or CloudFront's origin access control.
 */
export class PrivateBucket extends Bucket {
  constructor(scope: Construct, id: string, { retain, accessLogs, ...props }: PrivateBucketProps) {
    super(scope, id, {
      ...props,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: accessLogs?.bucket,
      serverAccessLogsPrefix: accessLogs?.prefix,
      removalPolicy: retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: !retain,
    });
  }
}
