import { parseAccountConfig, type AccountConfig } from '../../../web/src/auth/account-config';
import { amplifyConfig, googleEnabled, hasAccounts } from '../../../web/src/auth/amplify-config';

const ORIGIN = 'https://humanly.example';
const base: AccountConfig = {
  userPoolId: 'eu-west-1_abc',
  userPoolClientId: 'client123',
  region: 'eu-west-1',
  googleSignIn: false,
};

describe('Amplify settings from the runtime config', () => {
  it('without Google: the pool and client, email sign-in, no OAuth and no custom endpoint', () => {
    const cognito = amplifyConfig(base, ORIGIN).Auth!.Cognito;
    expect(cognito).toEqual({ userPoolId: 'eu-west-1_abc', userPoolClientId: 'client123', loginWith: { email: true } });
    expect(googleEnabled(base)).toBe(false);
  });

  it('on the twin: the cognito-local endpoint', () => {
    const cognito = amplifyConfig({ ...base, userPoolEndpoint: 'http://127.0.0.1:4023' }, ORIGIN).Auth!.Cognito;
    expect(cognito.userPoolEndpoint).toBe('http://127.0.0.1:4023');
  });

  it('with Google: the authorization-code flow on the pool domain, back to the client portal and home of this origin', () => {
    const config = { ...base, googleSignIn: true, oauthDomain: 'https://auth.humanly.example/' };
    expect(googleEnabled(config)).toBe(true);
    const oauth = amplifyConfig(config, ORIGIN).Auth!.Cognito.loginWith!.oauth;
    expect(oauth).toEqual({
      domain: 'auth.humanly.example',
      scopes: ['openid', 'email', 'profile'],
      redirectSignIn: ['https://humanly.example/client-portal'],
      redirectSignOut: ['https://humanly.example/'],
      responseType: 'code',
      providers: ['Google'],
    });
  });

  it('offers Google only when the stage says so and has a domain', () => {
    for (const config of [{ ...base, googleSignIn: true }, { ...base, oauthDomain: 'auth.humanly.example' }, { ...base, googleSignIn: false, oauthDomain: 'auth.humanly.example' }]) {
      expect(googleEnabled(config)).toBe(false);
      expect(amplifyConfig(config, ORIGIN).Auth!.Cognito.loginWith!.oauth).toBeUndefined();
    }
  });

  it('refuses a config without a user pool, naming the fields', () => {
    const { userPoolId: _id, ...noPool } = base;
    expect(hasAccounts(noPool)).toBe(false);
    expect(hasAccounts(base)).toBe(true);
    expect(() => amplifyConfig(noPool, ORIGIN)).toThrow(/"userPoolId" and "userPoolClientId"/);
  });
});

describe('the account settings of /config.json', () => {
  it('reads the pool, the twin endpoint and the Google settings; Google is off unless the file says true', () => {
    const twinFile = { apiUrl: 'http://127.0.0.1:4010', userPoolId: 'local_1', userPoolClientId: 'c1', userPoolEndpoint: 'http://127.0.0.1:4023/', region: 'us-east-1' };
    expect(parseAccountConfig(twinFile)).toEqual({ userPoolId: 'local_1', userPoolClientId: 'c1', userPoolEndpoint: 'http://127.0.0.1:4023', region: 'us-east-1', googleSignIn: false });
    const google = parseAccountConfig({ ...twinFile, oauthDomain: 'auth.humanly.example', googleSignIn: true });
    expect(google).toMatchObject({ oauthDomain: 'auth.humanly.example', googleSignIn: true });
    expect(parseAccountConfig({ ...twinFile, googleSignIn: 'yes' }).googleSignIn).toBe(false);
    expect(() => parseAccountConfig([])).toThrow(/JSON object/);
  });
});
