import { Duration, Stack } from 'aws-cdk-lib';
import { CfnRoute, CfnStage, CorsHttpMethod, HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { UserPool, UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { Function as LambdaFunction, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_ENV } from '../../../events/resource-names';

/**
 * The HTTP API: public routes for the site, admin routes behind a JWT authorizer that accepts
 * only tokens of the console's app client (handlers check the admin group), and the portals'
 * routes behind one that accepts only the site's. Every route is added with `route`.
 *
 * Browsers reach it through its CloudFront distribution and WAF (edge.ts), which
 * adds the origin-verify secret to every request; each route's function gets the secret, so
 * it trusts CloudFront's viewer-address header only on requests that carry it
 * (functions/shared/rate-limit.ts `clientIpOf`).
 */
export class MarketplaceApi extends Construct {
  readonly api: HttpApi;
  readonly adminAuthorizer: HttpJwtAuthorizer;
  /** Accepts only tokens of the public site's app client: the portals' routes sit behind it. */
  readonly webAuthorizer: HttpJwtAuthorizer;
  /** Shared by the API's distribution (an origin header) and its functions; never leaves AWS. */
  readonly originVerify: Secret;

  constructor(
    scope: Construct,
    id: string,
    props: { allowOrigins: string[]; userPool: UserPool; adminClient: UserPoolClient; webClient: UserPoolClient },
  ) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', {
      description: 'Marketplace public and admin API',
      corsPreflight: {
        allowOrigins: props.allowOrigins,
        allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PUT, CorsHttpMethod.PATCH, CorsHttpMethod.DELETE],
        // idempotency-key: public POSTs may name their attempt (Stripe's convention).
        allowHeaders: ['content-type', 'authorization', 'range', 'idempotency-key'],
        // content-disposition: downloads (statement CSVs, the data export) keep the name the API gives them.
        exposeHeaders: ['content-range', 'content-disposition'],
        maxAge: Duration.days(1),
      },
    });
    this.originVerify = new Secret(this, 'OriginVerify', {
      description: 'Header value CloudFront adds to API requests, proving they passed the distribution and its WAF',
      generateSecretString: { excludePunctuation: true, passwordLength: 40 },
    });
    const stage = this.api.defaultStage!.node.defaultChild as CfnStage;
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS });
    // Access logs name the route and outcome, never bodies or caller addresses' payloads.
    stage.accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        routeKey: '$context.routeKey',
        status: '$context.status',
        latency: '$context.integrationLatency',
        time: '$context.requestTime',
      }),
    };
    stage.defaultRouteSettings = { throttlingBurstLimit: 200, throttlingRateLimit: 100 };

    const issuer = `https://cognito-idp.${props.userPool.stack.region}.amazonaws.com/${props.userPool.userPoolId}`;
    this.adminAuthorizer = new HttpJwtAuthorizer('AdminAuthorizer', issuer, {
      jwtAudience: [props.adminClient.userPoolClientId],
    });
    this.webAuthorizer = new HttpJwtAuthorizer('WebAuthorizer', issuer, {
      jwtAudience: [props.webClient.userPoolClientId],
    });
  }

  /**
   * Serves `route` (`METHOD /path`) with `fn`. The access class says who may call it and picks
   * the authorizer: `public` and `signed` routes have none, `admin` routes accept only tokens of
   * the console's app client, and the portal classes only tokens of the site's (AccessClass).
   * The function also gets the origin-verify secret.
   *
   * The route and its integration live beside the API, or, for a function of a nested stack, in
   * that nested stack (decision 026): a domain there takes its routes along, and the main stack
   * stays under CloudFormation's 500 resources.
   */
  route(route: RouteKeyText, fn: IFunction, access: AccessClass): void {
    const [method, path] = route.split(' ') as [HttpMethod, string];
    if (fn instanceof LambdaFunction) fn.addEnvironment(ORIGIN_VERIFY_ENV, this.originVerify.secretValue.unsafeUnwrap());
    const authorizer = access === 'admin' ? this.adminAuthorizer : access === 'public' || access === 'signed' ? undefined : this.webAuthorizer;
    const scope = Stack.of(fn) === Stack.of(this) ? this.api : fn;
    const created = new HttpRoute(scope, `${method}${path}`, {
      httpApi: this.api,
      routeKey: HttpRouteKey.with(path, method),
      integration: new HttpLambdaIntegration('Integration', fn),
      authorizer,
    });
    (created.node.defaultChild as CfnRoute).addMetadata(ACCESS_METADATA, access);
  }
}

/**
 * Who may call a route, written on the route as `app:access` metadata: `public` (anyone),
 * `signed` (a caller with a signature the function verifies: a webhook), `admin` (members of the
 * admin group, signed in on the console), or a class of signed-in people of the public site (the
 * portals), whose handler reads identity and `cognito:groups` from the verified claims only:
 * `account` any client or talent, `client`, `owner` (a client, on their own resource), `talent`,
 * `accepted-talent` (a talent whose application was accepted). The access matrix
 * (docs/checks.md) reads it from the template; a route without a known class fails it.
 */
export type AccessClass = 'public' | 'signed' | 'admin' | 'account' | 'client' | 'owner' | 'talent' | 'accepted-talent';
export const ACCESS_METADATA = 'app:access';

/** A route as API Gateway keys it: `METHOD /path`, e.g. `POST /early-signup`. */
export type RouteKeyText = `${HttpMethod} /${string}`;
