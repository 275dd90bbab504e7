// What the payout tests share on the twin: a founding talent who can sign in to the site (a payee),
// and the Stripe emulator's hosted onboarding form as that talent fills it in.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ONBOARDING_TEST_VALUES } from '../../../infra/local/emulators/stripe';
import { seedUser } from '../../../infra/local/provision';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { documentClient, idToken, type TestTwin } from '../../support/twin';

export interface Payee {
  talentId: string;
  name: string;
  token: string;
}

/**
 * An accepted founding talent `<first> Payee` (`<prefix>-<first>-<run>`, an address at `domain`),
 * whose catalog item names the application they came from (their address before they set up
 * payouts), signed in on the site's app client.
 */
export async function payee(twin: TestTwin, first: string, options: { prefix: string; run: string; domain: string; password: string }): Promise<Payee> {
  const talentId = `${options.prefix}-${first}-${options.run}`;
  const email = `${first}.${options.run}@${options.domain}`;
  const accepted = await createAcceptedTalent(twin, { email, talentId, firstName: first, lastName: 'Payee', founding: true, marker: `${first}-${options.run}` });
  await documentClient(twin).send(
    new UpdateCommand({ TableName: twin.physicalName('CatalogTalentTable'), Key: { id: talentId }, UpdateExpression: 'SET applicationId = :a', ExpressionAttributeValues: { ':a': accepted.applicationId } }),
  );
  await seedUser(twin.urls.cognito, twin.userPoolId, { email, password: options.password, groups: ['talent'], attributes: { 'custom:role': 'talent' } });
  return { talentId, name: `${first} Payee`, token: await idToken(twin, email, options.password, 'web') };
}

/** Posts the hosted onboarding page at `url` filled in as the payee does (the emulator's test values); answers Stripe's redirect. */
export function submitOnboarding(url: string, t: Payee): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      first_name: t.name.split(' ')[0]!,
      last_name: 'Payee',
      dob: '1990-04-12',
      ssn_last_4: ONBOARDING_TEST_VALUES.ssnLast4,
      routing_number: ONBOARDING_TEST_VALUES.routingNumber,
      account_number: ONBOARDING_TEST_VALUES.accountNumber,
    }).toString(),
  });
}
