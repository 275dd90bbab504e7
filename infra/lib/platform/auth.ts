import { Duration, RemovalPolicy, SecretValue, Stack } from 'aws-cdk-lib';
import {
  AccountRecovery,
  CfnUserPoolGroup,
  OAuthScope,
  FeaturePlan,
  Mfa,
  ProviderAttribute,
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
import type { StageConfig } from './stage-config';

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
 * (domains/accounts.ts adds them).
 */
export class Auth extends Construct {
  readonly userPool: UserPool;
  readonly webClient: UserPoolClient;
  readonly adminClient: UserPoolClient;
  /** Host name of the pool's domain (Google sign-in's hosted pages), when Google is configured. */
  readonly oauthDomain?: string;

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
      featurePlan: FeaturePlan.ESSENTIALS,
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
