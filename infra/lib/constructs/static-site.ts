import * as fs from 'node:fs';
import { Annotations, Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AllowedMethods,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';

export interface StaticSiteProps {
  /** Hosts the browser may call besides the site itself (API, Cognito, S3 uploads). */
  connectSources: string[];
  logBucket: Bucket;
}

/**
 * A single-page app in a private bucket, readable only by its CloudFront distribution
 * (origin access control), with security headers on every response.
 */
export class StaticSite extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: StaticSiteProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: `${id.toLowerCase()}-bucket/`,
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: `${id}: CSP, HSTS, nosniff, frame-ancestors`,
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          override: true,
          contentSecurityPolicy: [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob: https:",
            "font-src 'self' data:",
            `connect-src 'self' ${props.connectSources.join(' ')}`,
            "frame-ancestors 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "object-src 'none'",
          ].join('; '),
        },
        strictTransportSecurity: {
          override: true,
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          preload: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { override: true, frameOption: HeadersFrameOption.DENY },
        referrerPolicy: { override: true, referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN },
      },
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: id,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        responseHeadersPolicy: headers,
        compress: true,
      },
      // Client-side routes: unknown paths load the app, which renders the route or its 404.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: '/index.html',
        ttl: Duration.seconds(0),
      })),
      minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: `${id.toLowerCase()}-cdn/`,
    });
  }

  /**
   * Uploads the built site with its runtime settings as /config.json, if it has been built
   * (`npm run build`); synthesis without a build only warns.
   */
  deploy(distDir: string, runtimeConfig: Record<string, unknown>): void {
    if (!fs.existsSync(distDir)) {
      Annotations.of(this).addWarningV2(
        'app:site-not-built',
        `${distDir} does not exist: run \`npm run build\` before deploying so the site is uploaded.`,
      );
      return;
    }
    new BucketDeployment(this, 'Deploy', {
      sources: [Source.asset(distDir), Source.jsonData('config.json', runtimeConfig)],
      destinationBucket: this.bucket,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
    });
  }
}
