import * as fs from 'node:fs';
import * as path from 'node:path';
import { Annotations, Duration, IgnoreMode } from 'aws-cdk-lib';
import {
  AllowedMethods,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { type Bucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { PrivateBucket } from './buckets';
import { APP_SHELL_PAGE, DIRECTORY_INDEX_FUNCTION } from './template-names';

export { APP_SHELL_PAGE, DIRECTORY_INDEX_FUNCTION };

/** Written by the web build: the origin its HTML was built for and the files that name it. */
const PRERENDER_MANIFEST = 'prerender.json';
interface PrerenderManifest {
  siteUrl: string;
  siteUrlFiles: string[];
}

export interface StaticSiteProps {
  /** Hosts the browser may call besides the site itself (API, Cognito, S3 uploads). */
  connectSources: string[];
  logBucket: Bucket;
  /** The WAF web ACL in front of the distribution (edge.ts). */
  webAclArn?: string;
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
    // A build output: nothing to keep when the stack goes.
    this.bucket = new PrivateBucket(this, 'Bucket', {
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      accessLogs: { bucket: props.logBucket, prefix: `${id.toLowerCase()}-bucket/` },
      retain: false,
    });

    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: `${id}: CSP, HSTS, nosniff, frame-ancestors`,
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          override: true,
          contentSecurityPolicy: [
            "default-src 'self'",
            // WebAssembly compiled from our own scripts (the Content Credentials reader on /verify), and its worker.
            "script-src 'self' 'wasm-unsafe-eval'",
            "worker-src 'self' blob:",
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

    const directoryIndex = new CloudFrontFunction(this, 'DirectoryIndex', {
      comment: `${id}: serve /path from /path/index.html`,
      code: FunctionCode.fromInline(DIRECTORY_INDEX_FUNCTION),
      runtime: FunctionRuntime.JS_2_0,
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
        functionAssociations: [{ function: directoryIndex, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      // No file for the path (S3 answers 403 without list permission): the app shell renders the route or its 404.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: APP_SHELL_PAGE,
        ttl: Duration.seconds(0),
      })),
      minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      priceClass: PriceClass.PRICE_CLASS_100,
      webAclId: props.webAclArn,
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: `${id.toLowerCase()}-cdn/`,
    });
  }

  /**
   * Uploads the built site with its runtime settings as /config.json, if it has been built
   * (`npm run build`); synthesis without a build only warns.
   *
   * Hashed files under assets/ go first, cached for a year and never pruned (a page that is still
   * open keeps finding its chunks); then everything else, revalidated on every load, and the
   * cache is invalidated. `siteUrl` is the origin the pages' canonical, Open Graph and sitemap URLs
   * should name (default: the distribution's address); where the build named another, the names
   * are replaced at deploy time, so one build serves any stage.
   */
  deploy(distDir: string, runtimeConfig: Record<string, unknown>, options: { siteUrl?: string } = {}): void {
    if (!fs.existsSync(distDir)) {
      Annotations.of(this).addWarningV2(
        'app:site-not-built',
        `${distDir} does not exist: run \`npm run build\` before deploying so the site is uploaded.`,
      );
      return;
    }
    const assetsDir = path.join(distDir, 'assets');
    const assets = fs.existsSync(assetsDir)
      ? new BucketDeployment(this, 'DeployAssets', {
          sources: [Source.asset(assetsDir)],
          destinationBucket: this.bucket,
          destinationKeyPrefix: 'assets/',
          prune: false,
          cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
          memoryLimit: 512,
        })
      : undefined;

    const shell = APP_SHELL_PAGE.slice(1);
    const generated = [Source.jsonData('config.json', runtimeConfig)];
    // gitignore patterns, anchored at the build's root (a bare glob would also match nested files).
    const excluded = ['/assets/', `/${PRERENDER_MANIFEST}`];
    if (!fs.existsSync(path.join(distDir, shell))) generated.push(Source.data(shell, fs.readFileSync(path.join(distDir, 'index.html'), 'utf8')));
    const manifestFile = path.join(distDir, PRERENDER_MANIFEST);
    if (fs.existsSync(manifestFile)) {
      const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as PrerenderManifest;
      const siteUrl = options.siteUrl ?? `https://${this.distribution.distributionDomainName}`;
      if (siteUrl !== manifest.siteUrl) {
        for (const file of manifest.siteUrlFiles) {
          generated.push(Source.data(file, fs.readFileSync(path.join(distDir, file), 'utf8').split(manifest.siteUrl).join(siteUrl)));
          excluded.push(`/${file}`);
        }
      }
    }
    const site = new BucketDeployment(this, 'Deploy', {
      sources: [Source.asset(distDir, { exclude: excluded, ignoreMode: IgnoreMode.GIT }), ...generated],
      destinationBucket: this.bucket,
      // Pruning removes what the new build no longer has, except the hashed assets above.
      exclude: ['assets/*'],
      cacheControl: [CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
    });
    if (assets) site.node.addDependency(assets);
  }
}
