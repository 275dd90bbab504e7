// The proof of person's nested stack as deployed (docs/identity.md, "Verified identity"; decision
// 056): the verification route public and the Identity webhook signed, the page-only selfie's
// routes gone, the webhook's own signing secret read by it alone, and the Stripe secret key given
// only to the functions that call Stripe.
import { synthStack } from '../support/stack';

const { nested } = synthStack();
type Resource = { Type: string; Properties: Record<string, any>; Metadata?: Record<string, unknown> }; // eslint-disable-line @typescript-eslint/no-explicit-any
const identity = nested('Identity').toJSON().Resources as Record<string, Resource>;
const fnIdOf = (entry: string) => Object.keys(identity).find((id) => identity[id]!.Type === 'AWS::Lambda::Function' && identity[id]!.Metadata?.['app:entry'] === entry)!;
const envOf = (entry: string) => identity[fnIdOf(entry)]!.Properties.Environment.Variables as Record<string, unknown>;
const roleOf = (entry: string) => identity[fnIdOf(entry)]!.Properties.Role['Fn::GetAtt'][0] as string;
const routes = Object.fromEntries(
  Object.values(identity)
    .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
    .map((r) => [String(r.Properties.RouteKey), r.Metadata?.['app:access']]),
);
/** The roles whose policies name `text`. */
const rolesNaming = (text: string) =>
  Object.values(identity)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.PolicyDocument).includes(text))
    .flatMap((r) => r.Properties.Roles.map((role: { Ref: string }) => role.Ref))
    .sort();
const statementsOf = (entry: string) =>
  Object.values(identity)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleOf(entry)))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>);
const actionsOf = (entry: string) => statementsOf(entry).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

const VERIFY = 'functions/founding/routes/start-identity-verification/handler.ts';
const WEBHOOK = 'functions/founding/routes/receive-identity-event/handler.ts';
const CHECK = 'functions/founding/triggers/check-faces/handler.ts';

describe('the verified identity (infra)', () => {
  it('serves the verification publicly, the Identity webhook signed, and no page-only selfie route', () => {
    expect(routes['POST /founding-identity/verification']).toBe('public');
    expect(routes['POST /webhooks/stripe-identity']).toBe('signed');
    expect(routes['POST /founding-identity/selfie-upload']).toBeUndefined();
    expect(routes['POST /founding-identity/selfie']).toBeUndefined();
  });

  it('lets only the Identity webhook read its signing secret', () => {
    const secret = Object.keys(identity).find((id) => identity[id]!.Type === 'AWS::SecretsManager::Secret' && id.startsWith('StripeIdentityWebhookSecret'))!;
    expect(secret).toBeDefined();
    expect(rolesNaming(`"Ref":"${secret}"`)).toEqual([roleOf(WEBHOOK)]);
    expect(envOf(WEBHOOK).STRIPE_IDENTITY_WEBHOOK_SECRET_SECRET).toEqual({ Ref: secret });
  });

  it('gives the Stripe key to the functions that call Stripe, the return page to the verification route', () => {
    for (const entry of [VERIFY, WEBHOOK, CHECK]) expect({ entry, key: envOf(entry).STRIPE_SECRET_KEY_SECRET }).toEqual({ entry, key: expect.anything() });
    expect(envOf(VERIFY).SITE_URL).toBeDefined();
    expect(envOf('functions/founding/routes/get-identity-status/handler.ts').STRIPE_SECRET_KEY_SECRET).toBeUndefined();
  });

  it('keeps the verification route off the bucket and the bus; lets the webhook resume the workflow and nothing else of Step Functions', () => {
    expect(actionsOf(VERIFY).filter((a) => a.startsWith('s3:') || a.startsWith('events:'))).toEqual([]);
    expect(actionsOf(WEBHOOK).filter((a) => a.startsWith('states:'))).toEqual(['states:SendTaskSuccess']);
    expect(actionsOf(WEBHOOK)).toEqual(expect.arrayContaining(['s3:DeleteObject', 'events:PutEvents', 'dynamodb:DeleteItem']));
  });
});
