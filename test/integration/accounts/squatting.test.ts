import {
  AdminGetUserCommand,
  ConfirmSignUpCommand,
  InitiateAuthCommand,
  SignUpCommand,
  type AttributeType,
} from '@aws-sdk/client-cognito-identity-provider';
import { SignUpConflictResponse } from '../../../events/sign-up';
import { reportSignUpConflict, signUpAnsweringAlike } from '../../../web/src/auth/sign-up-conflict';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { cognitoMails, latestCognitoCode, visibleText } from '../../support/cognito-mail';
import { eventually } from '../../support/eventually';
import { freshAddress, postJsonFrom } from '../../support/from-address';
import { fileMarker } from '../../support/marker';
import { cognitoClient, useTwin } from '../../support/twin';

// Someone else's address (decision 040): a stranger signs up with it and never confirms. A twin
// of its own: the hourly schedule, fired a day ahead, removes every unconfirmed sign-up of the
// twin, which would pull the addresses of other files' sign-ups from under them.
const twin = useTwin({ own: true });
const marker = fileMarker('sq');
const address = (name: string) => `${name}.${marker}@people.example`;
const SQUATTER_PASSWORD = 'Squ4tter!Passw0rd';
const OWNER_PASSWORD = 'Real-Owner-Passw0rd!';
const HOUR = 3600_000;

const signUp = (email: string, password: string, role: 'client' | 'talent' = 'client') =>
  cognitoClient(twin()).send(
    new SignUpCommand({
      ClientId: twin().clientIds.web,
      Username: email,
      Password: password,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'name', Value: 'Some One' },
        { Name: 'custom:role', Value: role },
      ],
    }),
  );
const confirm = async (email: string) =>
  cognitoClient(twin()).send(new ConfirmSignUpCommand({ ClientId: twin().clientIds.web, Username: email, ConfirmationCode: await latestCognitoCode(twin(), email) }));
const userOf = (email: string) =>
  cognitoClient(twin())
    .send(new AdminGetUserCommand({ UserPoolId: twin().userPoolId, Username: email }))
    .catch((err: Error) => {
      if (err.name === 'UserNotFoundException') return undefined;
      throw err;
    });
const attribute = (attributes: AttributeType[] | undefined, name: string) => attributes?.find((a) => a.Name === name)?.Value;
const runSchedule = (at: number) => twin().events.runScheduled('UnconfirmedUsersSchedule', new Date(at).toISOString());

describe('unconfirmed sign-ups', () => {
  it('are removed by the hourly schedule once a day old, which frees the address for its owner', async () => {
    const squatted = address('squatted');
    const owner = address('confirmed');
    await signUp(squatted, SQUATTER_PASSWORD);
    await signUp(owner, OWNER_PASSWORD);
    await confirm(owner);
    const signedUpAt = Date.now();

    // An hour short of a day: kept (its code still works).
    await runSchedule(signedUpAt + 23 * HOUR);
    expect((await userOf(squatted))?.UserStatus).toBe('UNCONFIRMED');

    await runSchedule(signedUpAt + 24 * HOUR + 60_000);
    expect(await userOf(squatted)).toBeUndefined();
    expect((await userOf(owner))?.UserStatus).toBe('CONFIRMED');

    // The owner of the address can now sign up with it.
    await expect(signUp(squatted, OWNER_PASSWORD)).resolves.toMatchObject({ UserConfirmed: false });
    await confirm(squatted);
    const session = await cognitoClient(twin()).send(
      new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: twin().clientIds.web, AuthParameters: { USERNAME: squatted, PASSWORD: OWNER_PASSWORD } }),
    );
    expect(session.AuthenticationResult?.IdToken).toBeTruthy();
  });

  it("are replaced by the acceptance invitation of the address's applicant, whose invitation is sent", async () => {
    const applicant = address('applicant');
    await signUp(applicant, SQUATTER_PASSWORD, 'client');
    const talentId = `squat-${marker}`;
    const { applicationId } = await createAcceptedTalent(twin(), { email: applicant, talentId, firstName: 'Ana', lastName: marker, founding: false, marker });

    const invite = twin().functions().find((f) => f.logicalId.startsWith('FoundingInviteTalent'))!;
    await expect(twin().invoke(invite.arn, { applicationId, talentId })).resolves.toEqual({ invited: true, existingUser: false });

    const user = await userOf(applicant);
    expect(user?.UserStatus).toBe('FORCE_CHANGE_PASSWORD');
    expect(attribute(user?.UserAttributes, 'custom:role')).toBe('talent');
    const invitation = await eventually(
      async () => (await twin().emails()).find((m) => m.to.includes(applicant) && m.subject === 'Your Humanly talent account is ready'),
      { what: `the invitation to ${applicant}` },
    );
    // The temporary password it carries signs the applicant in (to choose their own).
    const temporary = visibleText(invitation).match(/temporary password:\s*(\S+)/)?.[1];
    expect(temporary).toBeTruthy();
    const first = await cognitoClient(twin()).send(
      new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: twin().clientIds.web, AuthParameters: { USERNAME: applicant, PASSWORD: temporary! } }),
    );
    expect(first.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    // The squatter's password opens nothing.
    await expect(
      cognitoClient(twin()).send(
        new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: twin().clientIds.web, AuthParameters: { USERNAME: applicant, PASSWORD: SQUATTER_PASSWORD } }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });
});

describe('signing up with an address that is taken', () => {
  const conflict = (email: string) => postJsonFrom(freshAddress(), `${twin().urls.api}/sign-up-conflicts`, { email });

  it('answers exactly as for a new address, and emails the owner of the account instead of a code', async () => {
    const owner = address('owner');
    const stranger = address('nobody');
    await signUp(owner, OWNER_PASSWORD);
    await confirm(owner);
    const codesBefore = (await cognitoMails(twin(), owner)).length;

    // What Cognito itself answers differs (the API cannot hide it; the WAF slows anyone asking)...
    await expect(signUp(owner, SQUATTER_PASSWORD)).rejects.toMatchObject({ name: 'UsernameExistsException' });
    // ...what the page sends next is answered the same way for both addresses.
    const [forOwner, forStranger] = [await conflict(owner), await conflict(stranger)];
    expect({ status: forOwner.status, body: forOwner.json }).toEqual({ status: 202, body: { received: true } });
    expect({ status: forStranger.status, body: forStranger.json }).toEqual({ status: forOwner.status, body: forOwner.json });
    expect(SignUpConflictResponse.parse(forOwner.json)).toEqual({ received: true });

    const notice = await eventually(async () => (await twin().emails()).find((m) => m.to.includes(owner) && m.subject === 'You already have a Humanly account'), {
      what: `the notice to ${owner}`,
    });
    expect(visibleText(notice)).toContain(`${twin().urls.web}/reset-password`);
    // The owner's account is untouched: same password, no new code.
    expect((await userOf(owner))?.UserStatus).toBe('CONFIRMED');
    expect(await cognitoMails(twin(), owner)).toHaveLength(codesBefore);
    expect((await twin().emails()).filter((m) => m.to.includes(stranger))).toEqual([]);
  });

  it("lets the person whose address a stranger holds unconfirmed sign up at once, as the sign-up page does", async () => {
    const person = address('person');
    await signUp(person, SQUATTER_PASSWORD, 'talent');

    // The sign-up page's own steps (web/src/auth/sign-up-conflict.ts), from the person's network.
    const outcome = await signUpAnsweringAlike({
      signUp: async () => ({ done: Boolean((await signUp(person, OWNER_PASSWORD, 'client')).UserConfirmed) }),
      reportConflict: () => reportSignUpConflict(twin().urls.api, person),
    });
    expect(outcome).toBe('confirm');
    await confirm(person);
    const session = await cognitoClient(twin()).send(
      new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: twin().clientIds.web, AuthParameters: { USERNAME: person, PASSWORD: OWNER_PASSWORD } }),
    );
    const claims = JSON.parse(Buffer.from(session.AuthenticationResult!.IdToken!.split('.')[1], 'base64url').toString('utf8'));
    expect(claims).toMatchObject({ email: person, 'custom:role': 'client' });
  });
});
