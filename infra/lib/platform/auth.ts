import { Duration, RemovalPolicy, SecretValue, Stack } from 'aws-cdk-lib';
import {
  AccountRecovery,
  CfnUserPoolGroup,
  CfnUserPoolRiskConfigurationAttachment,
  OAuthScope,
  FeaturePlan,
  Mfa,
  ProviderAttribute,
  StandardThreatProtectionMode,
  StringAttribute,
  UserPool,
  UserPoolClient,
  UserPoolClientIdentityProvider,
  UserPoolEmail,
  UserPoolIdentityProviderGoogle,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { PASSWORD_POLICY } from '../../../events/account-values';
import { PRODUCT_NAME } from '../../../events/product';
import { UserPoolFirewall } from './edge';
import type { StageConfig, ThreatProtection } from './stage-config';

const THREAT_PROTECTION_MODE: Record<Exclude<ThreatProtection, 'off'>, StandardThreatProtectionMode> = {
  audit: StandardThreatProtectionMode.AUDIT_ONLY,
  enforced: StandardThreatProtectionMode.FULL_FUNCTION,
};

const GROUPS = ['admin', 'client', 'talent'] as const;

export interface AuthProps {
  /** The public site: the invitation's sign-in link and Google's callback and sign-out URLs. */
  siteUrl: string;
  /** SES configuration set Cognito's emails name (when they go through SES). */
  configurationSetName: string;
}

/**
 * The user pool: people sign in with their email; a self sign-up chooses client or talent
 * (the pre-sign-up trigger refuses anything else, so nobody can sign themself up as admin)
 * and is put in that group once confirmed. The console has its own app client, so admin
 * routes can accept only its tokens. The pool's triggers are the accounts domain's functions
 * (domains/accounts.ts adds them). A WAF web ACL of its own rate limits sign-ups, code requests
 * and sign-ins per IP, and Cognito's threat protection watches (or, enforced, blocks) risky
 * sign-ins and leaked passwords where the stage pays for the Plus plan (decision 040).
 */
export class Auth extends Construct {
  readonly userPool: UserPool;
  readonly webClient: UserPoolClient;
  readonly adminClient: UserPoolClient;
  /** Host name of the pool's domain (Google sign-in's hosted pages), when Google is configured. */
  readonly oauthDomain?: string;
  readonly firewall: UserPoolFirewall;

  constructor(scope: Construct, id: string, config: StageConfig, props: AuthProps) {
    super(scope, id);
    const siteUrl = props.siteUrl.replace(/\/$/, '');
    this.userPool = new UserPool(this, 'UserPool', {
      userPoolName: `marketplace-${config.stage}`,
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true }, fullname: { required: false, mutable: true } },
      customAttributes: { role: new StringAttribute({ minLen: 1, maxLen: 16, mutable: false }) },
      // Defined once (events/account-values.ts): the sign-up page checks the same rules as the person types.
      passwordPolicy: { ...PASSWORD_POLICY, tempPasswordValidity: Duration.days(3) },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      // Threat protection needs the Plus plan (decision 040: what it costs and why prod enforces it).
      featurePlan: config.threatProtection === 'off' ? FeaturePlan.ESSENTIALS : FeaturePlan.PLUS,
      ...(config.threatProtection !== 'off' && { standardThreatProtectionMode: THREAT_PROTECTION_MODE[config.threatProtection] }),
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // Codes and invitations come from our sender address through SES (decision 020); its domain
      // must be verified first, so a new stage deploys once with authEmailFromSender=false.
      ...(config.authEmailFromSender && {
        email: UserPoolEmail.withSES({
          fromEmail: config.senderEmail,
          fromName: PRODUCT_NAME,
          sesVerifiedDomain: config.senderEmail.split('@')[1],
          sesRegion: Stack.of(this).region,
          configurationSetName: props.configurationSetName,
        }),
      }),
      deletionProtection: config.retainData,
      removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    if (config.threatProtection === 'enforced') {
      // Every app client: a high-risk sign-in is blocked, a medium one asks for the second factor
      // of a person who has one; a sign-up, sign-in or password change with a leaked password is
      // blocked. No notification emails: they would need their own sender set-up.
      new CfnUserPoolRiskConfigurationAttachment(this, 'RiskConfiguration', {
        userPoolId: this.userPool.userPoolId,
        clientId: 'ALL',
        accountTakeoverRiskConfiguration: {
          actions: {
            highAction: { eventAction: 'BLOCK', notify: false },
            mediumAction: { eventAction: 'MFA_IF_CONFIGURED', notify: false },
            lowAction: { eventAction: 'NO_ACTION', notify: false },
          },
        },
        compromisedCredentialsRiskConfiguration: { actions: { eventAction: 'BLOCK' }, eventFilter: ['SIGN_IN', 'SIGN_UP', 'PASSWORD_CHANGE'] },
      });
    }
    this.firewall = new UserPoolFirewall(this, 'Firewall', { userPoolArn: this.userPool.userPoolArn, codeLimit: config.cognitoCodeLimit, signInLimit: config.cognitoSignInLimit });

    GROUPS.forEach((name, precedence) => {
      new CfnUserPoolGroup(this, `Group-${name}`, {
        userPoolId: this.userPool.userPoolId,
        groupName: name,
        precedence,
        description: name === 'admin' ? 'Reviewers and operators; granted by an administrator only' : `Self sign-up role: ${name}`,
      });
    });

    const providers = [UserPoolClientIdentityProvider.COGNITO];
    let google: UserPoolIdentityProviderGoogle | undefined;
    if (config.googleClientId && config.googleClientSecretName) {
      google = new UserPoolIdentityProviderGoogle(this, 'Google', {
        userPool: this.userPool,
        clientId: config.googleClientId,
        clientSecretValue: SecretValue.secretsManager(config.googleClientSecretName),
        scopes: ['openid', 'email', 'profile'],
        attributeMapping: { email: ProviderAttribute.GOOGLE_EMAIL, fullname: ProviderAttribute.GOOGLE_NAME },
      });
      providers.push(UserPoolClientIdentityProvider.GOOGLE);
      this.userPool.registerIdentityProvider(google);
      // Google's sign-in runs on the pool's domain (Cognito's hosted pages).
      const domain = this.userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: config.authDomainPrefix } });
      this.oauthDomain = `${domain.domainName}.auth.${Stack.of(this).region}.amazoncognito.com`;
    }

    const clientDefaults = {
      userPool: this.userPool,
      generateSecret: false,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      // Password auth over TLS is used by the browser apps (the local twin has no SRP).
      authFlows: { userPassword: true, userSrp: true },
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    };
    this.webClient = new UserPoolClient(this, 'WebClient', {
      ...clientDefaults,
      supportedIdentityProviders: providers,
      // With Google: the authorization code grant, back to the client portal (a Google sign-up is a
      // client's account); without it the client has no OAuth flows at all.
      ...(google
        ? {
            oAuth: {
              flows: { authorizationCodeGrant: true },
              scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
              callbackUrls: [`${siteUrl}/client-portal`],
              logoutUrls: [`${siteUrl}/`],
            },
          }
        : { disableOAuth: true }),
    });
    // A client naming Google must be created after the provider (CloudFormation does not infer it).
    if (google) this.webClient.node.addDependency(google);
    this.adminClient = new UserPoolClient(this, 'AdminClient', {
      ...clientDefaults,
      disableOAuth: true,
      refreshTokenValidity: Duration.hours(12),
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
    });
  }
}
