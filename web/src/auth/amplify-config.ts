import type { ResourcesConfig } from 'aws-amplify';
import type { AccountConfig } from './account-config';

/** Where Google sign-in returns (docs/product.md#account-emails: Google sign-in lands in the client portal). */
const GOOGLE_REDIRECT_PATH = '/client-portal';
/** Where signing out of a Google session returns. */
const SIGN_OUT_REDIRECT_PATH = '/';
const OAUTH_SCOPES = ['openid', 'email', 'profile'];

/** The site has accounts only when the stage's config names a user pool and its app client. */
export function hasAccounts(config: AccountConfig): boolean {
  return Boolean(config.userPoolId && config.userPoolClientId);
}

/** True when "Continue with Google" is offered: the stage says so and has a user pool domain. */
export function googleEnabled(config: AccountConfig): boolean {
  return Boolean(config.googleSignIn && config.oauthDomain);
}

/**
 * Amplify's Auth settings from the site's runtime config (`/config.json`), for the page's origin.
 * `userPoolEndpoint` is set only on the local twin (cognito-local). With Google configured, the
 * hosted OAuth settings: the authorization-code flow, the user pool domain, and redirects back to
 * this origin.
 */
export function amplifyConfig(config: AccountConfig, origin: string): ResourcesConfig {
  if (!config.userPoolId || !config.userPoolClientId) {
    throw new Error('config.json: "userPoolId" and "userPoolClientId" are needed for sign-in');
  }
  const google = googleEnabled(config);
  return {
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(config.userPoolEndpoint ? { userPoolEndpoint: config.userPoolEndpoint } : {}),
        loginWith: {
          email: true,
          ...(google
            ? {
                oauth: {
                  // Amplify wants the bare host name.
                  domain: config.oauthDomain!.replace(/^https?:\/\//, '').replace(/\/+$/, ''),
                  scopes: OAUTH_SCOPES,
                  redirectSignIn: [`${origin}${GOOGLE_REDIRECT_PATH}`],
                  redirectSignOut: [`${origin}${SIGN_OUT_REDIRECT_PATH}`],
                  responseType: 'code' as const,
                  providers: ['Google' as const],
                },
              }
            : {}),
        },
      },
    },
  };
}
