import { CfnRule, Fn, Stack, Token } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '../../../events/resource-names';
import type { MarketplaceApi } from './http-api';

/** CloudFront's web ACLs live in this region only. */
const EDGE_REGION = 'us-east-1';

export interface EdgeFirewallProps {
  /** Requests per IP per 5 minutes to public POST routes (context `wafPostLimit`). */
  postLimit: number;
  /** Requests per IP per 5 minutes to anything (context `wafRequestLimit`). */
  requestLimit: number;
}

const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName });

/**
 * The WAF web ACL in front of every distribution (API and sites): per-IP rate rules, AWS's
 * common rule set and its known-bad-inputs set. A CloudFront web ACL must be created in
 * us-east-1, so the stack is deployed there: a template rule refuses a deployment elsewhere
 * (decision 016), and synthesis for another named region fails.
 */
export class EdgeFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeFirewallProps) {
    super(scope, id);
    const region = Stack.of(this).region;
    if (!Token.isUnresolved(region) && region !== EDGE_REGION) {
      throw new Error(`The stack must be deployed to ${EDGE_REGION}: CloudFront's WAF web ACL can only be created there (got region ${region}).`);
    }
    new CfnRule(this, 'EdgeRegion', {
      assertions: [
        {
          assert: Fn.conditionEquals(Stack.of(this).region, EDGE_REGION),
          assertDescription: `Deploy this stack to ${EDGE_REGION}: CloudFront's WAF web ACL can only be created there.`,
        },
      ],
    });

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('marketplace-edge'),
      rules: [
        {
          // The free forms (waitlist, contact, uploads, applications): a script is stopped at the edge.
          name: 'public-post-per-ip',
          priority: 0,
          action: { block: {} },
          visibilityConfig: visibility('public-post-per-ip'),
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: props.postLimit,
              evaluationWindowSec: 300,
              scopeDownStatement: {
                andStatement: {
                  statements: [
                    { byteMatchStatement: { fieldToMatch: { method: {} }, positionalConstraint: 'EXACTLY', searchString: 'POST', textTransformations: [{ priority: 0, type: 'NONE' }] } },
                    {
                      notStatement: {
                        statement: {
                          byteMatchStatement: { fieldToMatch: { uriPath: {} }, positionalConstraint: 'STARTS_WITH', searchString: '/admin/', textTransformations: [{ priority: 0, type: 'NONE' }] },
                        },
                      },
                    },
                  ],
                },
              },
            },
          },
        },
        {
          name: 'all-requests-per-ip',
          priority: 1,
          action: { block: {} },
          visibilityConfig: visibility('all-requests-per-ip'),
          statement: { rateBasedStatement: { aggregateKeyType: 'IP', limit: props.requestLimit, evaluationWindowSec: 300 } },
        },
        {
          name: 'aws-common',
          priority: 2,
          overrideAction: { none: {} },
          visibilityConfig: visibility('aws-common'),
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              // Application bodies (answers and upload keys) can pass 8 KB; our handlers cap sizes themselves.
              ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }],
            },
          },
        },
        {
          name: 'aws-known-bad-inputs',
          priority: 3,
          overrideAction: { none: {} },
          visibilityConfig: visibility('aws-known-bad-inputs'),
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesKnownBadInputsRuleSet' } },
        },
      ],
    });
  }
}

/** The prefix of every Cognito user pool API call's `X-Amz-Target` header. */
const COGNITO_TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';

/** Calls that make Cognito email a code: each one costs a message and can be scripted. */
const COGNITO_CODE_OPERATIONS = ['SignUp', 'ResendConfirmationCode', 'ForgotPassword'] as const;
/** Sign-ins and code confirmations: password and code guessing. */
const COGNITO_SIGN_IN_OPERATIONS = ['InitiateAuth', 'RespondToAuthChallenge', 'ConfirmSignUp', 'ConfirmForgotPassword'] as const;

export interface UserPoolFirewallProps {
  /** The pool's ARN; the web ACL is associated with it. */
  userPoolArn: string;
  /** Code-sending calls per IP per 5 minutes (context `cognitoCodeLimit`). */
  codeLimit: number;
  /** Sign-in and confirmation calls per IP per 5 minutes (context `cognitoSignInLimit`). */
  signInLimit: number;
}

/** A statement matching requests whose `X-Amz-Target` names one of the operations. */
function cognitoOperations(operations: readonly string[]): CfnWebACL.StatementProperty {
  const matches: CfnWebACL.StatementProperty[] = operations.map((operation) => ({
    byteMatchStatement: {
      fieldToMatch: { singleHeader: { Name: 'x-amz-target' } },
      positionalConstraint: 'EXACTLY',
      searchString: `${COGNITO_TARGET_PREFIX}${operation}`,
      textTransformations: [{ priority: 0, type: 'NONE' }],
    },
  }));
  return matches.length === 1 ? matches[0] : { orStatement: { statements: matches } };
}

/**
 * The WAF web ACL of the user pool (decision 040). The browser calls Cognito's API directly, so
 * the edge ACL never sees a sign-up: this regional ACL, associated with the pool, rate limits per
 * IP the calls that email a code (sign-up, resend, forgot password) and the sign-ins and code
 * confirmations. A blocked call gets Cognito's 403 `ForbiddenException` ("Request not allowed due
 * to WAF block."); the twin enforces the same rules from the template (infra/local/waf.ts).
 * WAF aggregates by one address, never by a network prefix.
 */
export class UserPoolFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: UserPoolFirewallProps) {
    super(scope, id);
    const perIp = (name: string, priority: number, limit: number, operations: readonly string[]): CfnWebACL.RuleProperty => ({
      name,
      priority,
      action: { block: {} },
      visibilityConfig: visibility(name),
      statement: { rateBasedStatement: { aggregateKeyType: 'IP', limit, evaluationWindowSec: 300, scopeDownStatement: cognitoOperations(operations) } },
    });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('marketplace-user-pool'),
      rules: [
        perIp('cognito-codes-per-ip', 0, props.codeLimit, COGNITO_CODE_OPERATIONS),
        perIp('cognito-sign-in-per-ip', 1, props.signInLimit, COGNITO_SIGN_IN_OPERATIONS),
      ],
    });
    new CfnWebACLAssociation(this, 'Association', { resourceArn: props.userPoolArn, webAclArn: this.webAcl.attrArn });
  }
}

export interface ApiDistributionProps {
  api: MarketplaceApi;
  firewall: EdgeFirewall;
  logBucket: IBucket;
}

/**
 * The API behind CloudFront and the WAF: nothing cached, every viewer header but Host passed on
 * (CloudFront sets `cloudfront-viewer-address` itself), and the origin-verify secret added, which
 * lets the functions trust that address (functions/shared/rate-limit.ts `clientIpOf`).
 */
export class ApiDistribution extends Construct {
  readonly distribution: Distribution;
  /** The API's public base URL (what the sites call). */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ApiDistributionProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const apiHost = `${props.api.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Marketplace API (WAF, origin-verify header)',
      defaultBehavior: {
        origin: new HttpOrigin(apiHost, {
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          customHeaders: { [ORIGIN_VERIFY_HEADER]: props.api.originVerify.secretValue.unsafeUnwrap() },
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
      webAclId: props.firewall.webAcl.attrArn,
      minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: 'api-cdn/',
    });
    this.url = `https://${this.distribution.distributionDomainName}`;
  }
}
