import * as http from 'node:http';
import { AdminGetUserCommand, CognitoIdentityProviderClient, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { freshAddress } from '../../support/from-address';
import { fileMarker } from '../../support/marker';
import { cognitoClient, useTwin, type TestTwin } from '../../support/twin';

// The user pool's WAF web ACL, enforced by the twin from the template (decision 040): per caller
// address, the calls that email a code and the sign-ins are limited over 5 minutes, and a
// blocked call gets WAF's answer through Cognito, 403 ForbiddenException, without reaching it.
const twin = useTwin();
const marker = fileMarker('waf');
const PASSWORD = 'Str0ng!Passw0rd';
const TARGET = 'AWSCognitoIdentityProviderService.';

/** The limit of a rule of the pool's web ACL, read from the template the twin serves. */
function limitOf(t: TestTwin, ruleName: string): number {
  const association = Object.values(t.template.Resources).find((r) => r.Type === 'AWS::WAFv2::WebACLAssociation')!;
  const aclId = association.Properties!.WebACLArn['Fn::GetAtt'][0];
  const rule = t.template.Resources[aclId].Properties!.Rules.find((r: { Name: string }) => r.Name === ruleName);
  return rule.Statement.RateBasedStatement.Limit;
}

/** One raw Cognito call from `from`, as a browser's SDK sends it. */
function cognitoCall(from: string, operation: string, body: unknown): Promise<{ status: number; errorType?: string; json: Record<string, unknown> }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      twin().urls.cognito,
      {
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `${TARGET}${operation}`, 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, errorType: res.headers['x-amzn-errortype'] as string | undefined, json: text ? JSON.parse(text) : {} });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const signUpBody = (email: string) => ({
  ClientId: twin().clientIds.web,
  Username: email,
  Password: PASSWORD,
  UserAttributes: [
    { Name: 'email', Value: email },
    { Name: 'name', Value: 'Bot Farmer' },
    { Name: 'custom:role', Value: 'client' },
  ],
});

const admin = () => new CognitoIdentityProviderClient({ endpoint: twin().urls.cognito, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
const exists = async (email: string) =>
  admin()
    .send(new AdminGetUserCommand({ UserPoolId: twin().userPoolId, Username: email }))
    .then(() => true)
    .catch((err: Error) => {
      if (err.name === 'UserNotFoundException') return false;
      throw err;
    });

const WAF_BLOCK = { __type: 'ForbiddenException', message: 'Request not allowed due to WAF block.' };

describe("the user pool's WAF on the twin", () => {
  it('lets one address sign up `limit` times in 5 minutes, then answers 403 ForbiddenException without creating the account or mailing a code', async () => {
    const limit = limitOf(twin(), 'cognito-codes-per-ip');
    const network = freshAddress();
    const email = (i: number) => `farm.${i}.${marker}@catchall.example`;
    for (let i = 0; i < limit; i++) {
      const answer = await cognitoCall(network, 'SignUp', signUpBody(email(i)));
      expect({ i, status: answer.status, confirmed: answer.json.UserConfirmed }).toEqual({ i, status: 200, confirmed: false });
    }
    const blocked = await cognitoCall(network, 'SignUp', signUpBody(email(limit)));
    expect(blocked).toEqual({ status: 403, errorType: 'ForbiddenException', json: WAF_BLOCK });
    expect(await exists(email(limit))).toBe(false);
    expect(await exists(email(0))).toBe(true);
    expect((await twin().emails()).filter((m) => m.to.includes(email(limit)))).toEqual([]);

    // The rule counts the calls that mail a code: a "Resend code" or "Forgot password?" from this address is blocked too...
    expect((await cognitoCall(network, 'ResendConfirmationCode', { ClientId: twin().clientIds.web, Username: email(0) })).status).toBe(403);
    expect((await cognitoCall(network, 'ForgotPassword', { ClientId: twin().clientIds.web, Username: email(0) })).status).toBe(403);
    // ...but not its sign-ins.
    const signIn = await cognitoCall(network, 'InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: twin().clientIds.web, AuthParameters: { USERNAME: email(0), PASSWORD } });
    expect({ status: signIn.status, type: signIn.json.__type }).toEqual({ status: 400, type: 'UserNotConfirmedException' });
  });

  it('lets a person on another network sign up meanwhile, and the SDK reads the block as ForbiddenException', async () => {
    const limit = limitOf(twin(), 'cognito-codes-per-ip');
    const network = freshAddress();
    for (let i = 0; i <= limit; i++) await cognitoCall(network, 'SignUp', signUpBody(`more.${i}.${marker}@catchall.example`));
    const script = new CognitoIdentityProviderClient({
      endpoint: twin().urls.cognito,
      region: TWIN_REGION,
      credentials: { ...TWIN_CREDENTIALS },
      requestHandler: { httpAgent: new http.Agent({ localAddress: network }) },
    });
    await expect(script.send(new SignUpCommand(signUpBody(`sdk.${marker}@catchall.example`)))).rejects.toMatchObject({
      name: 'ForbiddenException',
      message: WAF_BLOCK.message,
      $metadata: expect.objectContaining({ httpStatusCode: 403 }),
    });

    const person = `real.person.${marker}@people.example`;
    await expect(cognitoClient(twin()).send(new SignUpCommand(signUpBody(person)))).resolves.toMatchObject({ UserConfirmed: false });
    expect(await exists(person)).toBe(true);
  });

  it('blocks the 101st sign-in attempt of an address in 5 minutes (password guessing), not its first', async () => {
    const limit = limitOf(twin(), 'cognito-sign-in-per-ip');
    const network = freshAddress();
    const attempt = () =>
      cognitoCall(network, 'InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: twin().clientIds.web, AuthParameters: { USERNAME: `nobody.${marker}@people.example`, PASSWORD: 'Wrong!Passw0rd' } });
    for (let i = 0; i < limit; i++) {
      const answer = await attempt();
      expect({ i, status: answer.status }).toEqual({ i, status: 400 });
    }
    expect(await attempt()).toEqual({ status: 403, errorType: 'ForbiddenException', json: WAF_BLOCK });
  });
});
