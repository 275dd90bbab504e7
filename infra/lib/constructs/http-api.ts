import { Duration, Stack } from 'aws-cdk-lib';
import { CfnRoute, CfnStage, CorsHttpMethod, HttpApi, HttpMethod, HttpRoute, HttpRouteKey, type IHttpRouteAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { UserPool, UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Function as LambdaFunction, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_ENV } from '../../../events/resource-names';
import { AppFunction, type TableAction } from '../app-function';

/**
 * The HTTP API: public routes for the site, and admin routes behind a JWT authorizer that
 * accepts only tokens of the console's app client (handlers check the admin group).
 *
 * Browsers reach it through its CloudFront distribution and WAF (constructs/edge.ts), which
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

  publicRoute(path: string, method: HttpMethod, fn: IFunction, name: string): void {
    this.knowsOriginVerify(fn);
    recordAccess(this.addRoute(path, method, fn, name), 'public');
  }

  /**
   * A public route whose caller proves who it is with a signature the function checks (an
   * outside service's webhook): no authorizer, and nobody without the signature gets a 2xx.
   */
  signedRoute(path: string, method: HttpMethod, fn: IFunction, name: string): void {
    this.knowsOriginVerify(fn);
    recordAccess(this.addRoute(path, method, fn, name), 'signed');
  }

  adminRoute(path: string, method: HttpMethod, fn: IFunction, name: string): void {
    this.knowsOriginVerify(fn);
    recordAccess(this.addRoute(path, method, fn, name, this.adminAuthorizer), 'admin');
  }

  /**
   * A route for signed-in people of the public site (the portals): behind the site's JWT
   * authorizer, so anonymous callers get 401 before the function runs. `access` says who the
   * handler lets through (it reads identity and `cognito:groups` from the verified claims
   * only): `account` any client or talent, `client`, `owner` (a client, on their own resource),
   * `talent`, `accepted-talent` (a talent whose application was accepted).
   */
  userRoute(path: string, method: HttpMethod, fn: IFunction, name: string, access: Exclude<AccessClass, 'public' | 'admin'>): void {
    this.knowsOriginVerify(fn);
    recordAccess(this.addRoute(path, method, fn, name, this.webAuthorizer), access);
  }

  /**
   * The route and its integration live beside the API, or, for a function of a nested stack,
   * in that nested stack (decision 026): a domain moved there takes its routes along, and the
   * main stack stays under CloudFormation's 500 resources.
   */
  private addRoute(path: string, method: HttpMethod, fn: IFunction, name: string, authorizer?: IHttpRouteAuthorizer): HttpRoute[] {
    const integration = new HttpLambdaIntegration(name, fn);
    const fnStack = Stack.of(fn);
    if (fnStack === Stack.of(this)) return this.api.addRoutes({ path, methods: [method], integration, authorizer });
    return [new HttpRoute(fn, `Route${name}${method}`, { httpApi: this.api, routeKey: HttpRouteKey.with(path, method), integration, authorizer })];
  }

  /** The function may compare the origin-verify header with the secret (resolved at deploy time). */
  private knowsOriginVerify(fn: IFunction): void {
    if (fn instanceof LambdaFunction) fn.addEnvironment(ORIGIN_VERIFY_ENV, this.originVerify.secretValue.unsafeUnwrap());
  }

  /**
   * The console's routes on one table, each served by a function of its own created in
   * `scope` and given exactly the listed actions on the table (its indexes only when it queries them).
   */
  adminTableRoutes(scope: Construct, table: ITable, envName: string, routes: ConsoleRoute[]): void {
    for (const r of routes) {
      const [method, path] = r.route.split(' ') as [HttpMethod, string];
      const fn = new AppFunction(scope, r.id, { entry: r.entry, description: r.description }).bindTable(table, envName, r.actions, {
        indexes: r.actions.includes('Query'),
      });
      this.adminRoute(path, method, fn, r.id);
    }
  }
}

/**
 * Who may call a route, written on the route as `app:access` metadata: `public` (anyone),
 * `signed` (a caller with a signature the function verifies: a webhook),
 * `admin` (members of the admin group, signed in on the console), or one of the portal classes
 * of `userRoute`. The access matrix (docs/checks.md) reads it from the template; a route without
 * a known class fails it.
 */
type AccessClass = 'public' | 'signed' | 'admin' | 'account' | 'client' | 'owner' | 'talent' | 'accepted-talent';
export const ACCESS_METADATA = 'app:access';

function recordAccess(routes: HttpRoute[], access: AccessClass): void {
  for (const route of routes) (route.node.defaultChild as CfnRoute).addMetadata(ACCESS_METADATA, access);
}

/** One route of the review console: `route` is `METHOD /path`. */
export interface ConsoleRoute {
  id: string;
  route: `${HttpMethod} /admin/${string}`;
  entry: string;
  description: string;
  actions: TableAction[];
}
