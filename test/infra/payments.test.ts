// The Payments nested stack (docs/payments.md): its routes and their access classes, who may
// read the Stripe secret key and the webhook signing secret, and where prices come from.
import { Template } from 'aws-cdk-lib/assertions';
import { ACCESS_METADATA } from '../../infra/lib/platform/http-api';
import { stageConfig } from '../../infra/lib/platform/stage-config';
import { synthTemplate } from '../../infra/local/template';
import { App } from 'aws-cdk-lib';
import { FAILURE_METRICS } from '../../events/metrics';
import { actionsOf, synthStack } from '../support/stack';

const template = Template.fromJSON(synthTemplate({ stage: 'test' }));
type Statement = { Action: string | string[]; Resource: unknown };
const resources = (type: string) => template.findResources(type);
const idOf = (type: string, prefix: string) => {
  const id = Object.keys(resources(type)).find((k) => k.startsWith(prefix));
  if (!id) throw new Error(`no ${type} ${prefix}`);
  return id;
};
const functions = resources('AWS::Lambda::Function');
const statementsOfRole = (roleId: string): Statement[] =>
  Object.values(resources('AWS::IAM::Policy'))
    .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
const statementsOf = (fnId: string) => statementsOfRole(functions[fnId].Properties.Role['Fn::GetAtt'][0]);
/** Functions whose role may read the secret with this logical id prefix. */
const readersOf = (secretPrefix: string) => {
  const secret = idOf('AWS::SecretsManager::Secret', secretPrefix);
  return Object.keys(functions)
    .filter((fn) => statementsOf(fn).some((s) => actionsOf(s).includes('secretsmanager:GetSecretValue') && JSON.stringify(s.Resource).includes(secret)))
    .map((fn) => fn.replace(/[0-9A-F]{8}$/, ''))
    .sort();
};
const routes = Object.values(resources('AWS::ApiGatewayV2::Route')).map((r) => ({
  key: String(r.Properties.RouteKey),
  access: r.Metadata?.[ACCESS_METADATA],
  jwt: r.Properties.AuthorizationType === 'JWT',
}));

describe('payments (infra)', () => {
  it('serves the client routes behind the site sign-in, the webhook signed and unauthenticated, the console routes to admins', () => {
    const classOf = (key: string) => routes.find((r) => r.key === key);
    for (const key of ['POST /me/checkout-sessions', 'GET /me/checkout-sessions/{id}', 'POST /me/billing-portal-sessions', 'GET /me/billing']) {
      expect(classOf(key)).toEqual({ key, access: 'client', jwt: true });
    }
    expect(classOf('POST /webhooks/stripe')).toEqual({ key: 'POST /webhooks/stripe', access: 'signed', jwt: false });
    for (const key of ['GET /admin/users/{id}/billing', 'POST /admin/payments/{id}/refund', 'GET /admin/revenue']) {
      expect(classOf(key)).toEqual({ key, access: 'admin', jwt: true });
    }
  });

  it('lets only the functions that call Stripe read its secret key, and only the webhook read the signing secret', () => {
    expect(readersOf('StripeSecretKey')).toEqual(
      [
        'AdminGetUserBilling',
        'AdminRefundPayment',
        'CreateCheckoutSession',
        'CreatePortalSession',
        'GetBilling',
        'GetCheckoutSession',
        'ReceiveStripeEvent',
        // The payouts wing calls Stripe with the same platform key (docs/payouts.md).
        'AdminExportPayoutRunCsv',
        'AdminGetPayoutRun',
        'AdminRecordManualPayout',
        'AdminRetryPayout',
        'AdminRunPayoutMonth',
        'MyPayouts',
        'ReceiveConnectEvent',
        'RunPayouts',
        'StartPayoutOnboarding',
        // Erasure cancels a client's subscriptions and deletes their customer (functions/payments/erasure.ts).
        'ConsoleErasePerson',
        // The verified identity (docs/identity.md): sessions opened and read, the verified selfie
        // fetched for the face check, and Stripe's copy redacted when the photos go.
        'IdentityVerification',
        'ReceiveIdentityEvent',
        'CheckFaces',
        'FoundingDeletePhotos',
      ].sort(),
    );
    expect(readersOf('StripeWebhookSecret')).toEqual(['ReceiveStripeEvent']);
  });

  it('gives the Stripe functions the stage\'s prices, never a value from the request', () => {
    const env = functions[idOf('AWS::Lambda::Function', 'CreateCheckoutSession')].Properties.Environment.Variables;
    expect(JSON.parse(env.STRIPE_PRICES)).toEqual({
      starter: { monthly: 'price_humanly_starter_monthly', credit: 'price_humanly_starter_credit' },
      pro: { monthly: 'price_humanly_pro_monthly', credit: 'price_humanly_pro_credit' },
      enterprise: { monthly: 'price_humanly_enterprise_monthly', credit: 'price_humanly_enterprise_credit' },
    });
  });

  it('lets the webhook change credits and plans on the accounts table, and nothing on other domains\' tables', () => {
    const statements = statementsOf(idOf('AWS::Lambda::Function', 'ReceiveStripeEvent'));
    const tables = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:'))).map((s) => JSON.stringify(s.Resource));
    expect(tables.some((t) => t.includes('AccountsTable'))).toBe(true);
    expect(tables.some((t) => t.includes('PaymentsTable'))).toBe(true);
    expect(tables.filter((t) => !/AccountsTable|PaymentsTable|IdempotencyTable/.test(t))).toEqual([]);
  });
});

describe('payments erasure (infra)', () => {
  it('lets the erasure anonymise the Payments table\'s items and read the Stripe key, without putting or scanning there', () => {
    const statements = statementsOf(idOf('AWS::Lambda::Function', 'ConsoleErasePerson'));
    const payments = statements.filter((s) => JSON.stringify(s.Resource).includes('PaymentsTable'));
    expect([...new Set(payments.flatMap(actionsOf))].sort()).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    // Query on the byAccount index only (a client's payments), nothing on the table's other index.
    const query = payments.filter((s) => actionsOf(s).includes('dynamodb:Query'));
    expect(query.map((s) => JSON.stringify(s.Resource))).toEqual([expect.stringMatching(/\/index\/byAccount"/)]);
    expect(functions[idOf('AWS::Lambda::Function', 'ConsoleErasePerson')].Properties.Environment.Variables.STRIPE_SECRET_KEY_SECRET).toBeDefined();
  });

  it('alarms on StripeEventsOfErasedAccounts of this stack\'s namespace at its first occurrence, notifying the alarm topic', () => {
    const { nested } = synthStack();
    const alarms = nested('Alarms').toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const alarm = Object.values(alarms).find((r) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.MetricName === FAILURE_METRICS.erasedAccountEvent);
    expect(alarm?.Properties).toMatchObject({
      MetricName: 'StripeEventsOfErasedAccounts',
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    const topic = Object.keys(alarms).find((id) => alarms[id]!.Type === 'AWS::SNS::Topic')!;
    expect(alarm!.Properties.AlarmActions).toEqual([{ Ref: topic }]);
    expect(alarm!.Properties.Namespace).toEqual(functions[idOf('AWS::Lambda::Function', 'ReceiveStripeEvent')].Properties.Environment.Variables.METRICS_NAMESPACE);
  });
});

describe('stage config: Stripe prices', () => {
  const configOf = (context: Record<string, unknown>) => {
    const app = new App({ context });
    return stageConfig(app);
  };

  it('refuses a prod stage without its own prices, and a price list missing a plan', () => {
    expect(() => configOf({ stage: 'prod' })).toThrow(/stripePrices must name the live Stripe prices/);
    expect(() => configOf({ stage: 'dev', stripePrices: JSON.stringify({ starter: { monthly: 'price_a', credit: 'price_b' } }) })).toThrow(/stripePrices\.pro/);
  });

  it('takes a stage\'s prices from context', () => {
    const prices = { starter: { monthly: 'price_s1', credit: 'price_s2' }, pro: { monthly: 'price_p1', credit: 'price_p2' }, enterprise: { monthly: 'price_e1', credit: 'price_e2' } };
    expect(configOf({ stage: 'prod', stripePrices: JSON.stringify(prices), industryClassifierModel: 'meta/x' }).stripePrices).toEqual(prices);
  });
});
