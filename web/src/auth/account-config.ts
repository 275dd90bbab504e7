import { fetchRuntimeConfig, parseRuntimeConfig } from '../../../events/runtime-config';

/**
 * The user pool settings from `/config.json`, read only on account routes: every page's config
 * (../lib/runtimeConfig.ts) leaves them out, so marketing pages do not carry their parsing.
 */
export interface AccountConfig {
  userPoolId?: string;
  userPoolClientId?: string;
  /** Only on the local twin (cognito-local); on AWS Amplify derives the endpoint from the pool id. */
  userPoolEndpoint?: string;
  region?: string;
  /** The user pool's domain for Google sign-in (hosted OAuth), e.g. `auth.example.com`; set only when Google is configured. */
  oauthDomain?: string;
  /** Offer "Continue with Google" (needs oauthDomain). */
  googleSignIn: boolean;
}

/** Reads the account fields of a parsed `/config.json`. */
export function parseAccountConfig(raw: unknown): AccountConfig {
  return parseRuntimeConfig(raw, (f) => ({
    userPoolId: f.optionalString('userPoolId'),
    userPoolClientId: f.optionalString('userPoolClientId'),
    userPoolEndpoint: f.optionalUrl('userPoolEndpoint'),
    region: f.optionalString('region'),
    oauthDomain: f.optionalString('oauthDomain'),
    googleSignIn: f.boolean('googleSignIn', false),
  }));
}

let accountConfig: Promise<AccountConfig> | undefined;
let loaded: AccountConfig | undefined;

/** Fetches the settings once per page load (a failure may be retried). */
export function loadAccountConfig(): Promise<AccountConfig> {
  accountConfig ??= fetchRuntimeConfig(parseAccountConfig).then(
    (config) => (loaded = config),
    (err: unknown) => {
      accountConfig = undefined;
      throw err;
    },
  );
  return accountConfig;
}

/** The settings, for pages the account layout renders (it renders them only once loaded). */
export function accountConfigNow(): AccountConfig {
  if (!loaded) throw new Error('The account settings are not loaded yet: account pages must sit under the account layout');
  return loaded;
}
