// The Payouts nested stack as deployed (docs/payouts.md, decision 044): its routes and access
// classes, the Connect webhook's own signing secret read by it alone, the payout run following
// Royalties.MonthClosed (published by the close's last step), the stage's minimum reaching the
// run, and the PayoutsFailed metric's alarm on the alarm topic.
import { App } from 'aws-cdk-lib';
import { FAILURE_METRICS } from '../../events/metrics';
import { ROYALTIES_MONTH_CLOSED } from '../../events/royalty-events';
import { stageConfig } from '../../infra/lib/platform/stage-config';
import { synthStack } from '../support/stack';

const { nested } = synthStack();
type Resource = { Type: string; Properties: Record<string, any>; Metadata?: Record<string, unknown> }; // eslint-disable-line @typescript-eslint/no-explicit-any
const payouts = nested('Payouts').toJSON().Resources as Record<string, Resource>;
const royalties = nested('Royalties').toJSON().Resources as Record<string, Resource>;
const alarms = nested('Alarms').toJSON().Resources as Record<string, Resource>;
const fnIdOf = (entry: string) => Object.keys(payouts).find((id) => payouts[id]!.Type === 'AWS::Lambda::Function' && payouts[id]!.Metadata?.['app:entry'] === entry)!;
const envOf = (entry: string) => payouts[fnIdOf(entry)]!.Properties.Environment.Variables as Record<string, unknown>;
const routes = Object.values(payouts)
  .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
  .map((r) => [String(r.Properties.RouteKey), r.Metadata?.['app:access']]);

describe('payouts (infra)', () => {
  it('serves the talent routes to accepted talent, the Connect webhook signed, the console routes to admins', () => {
    expect(Object.fromEntries(routes)).toEqual({
      'POST /me/payouts/onboarding': 'accepted-talent',
      'GET /me/payouts': 'accepted-talent',
      'GET /me/payouts/earnings.csv': 'accepted-talent',
      'POST /webhooks/stripe-connect': 'signed',
      'GET /admin/payout-runs/{month}': 'admin',
      'GET /admin/payout-runs/{month}/csv': 'admin',
      'GET /admin/talent/{id}/payout-history': 'admin',
      'POST /admin/payout-runs/{month}': 'admin',
      'POST /admin/payouts/{statementId}/retry': 'admin',
      'POST /admin/payouts/{statementId}/manual': 'admin',
    });
  });

  it('lets only the Connect webhook read the Connect signing secret', () => {
    const secret = Object.keys(payouts).find((id) => payouts[id]!.Type === 'AWS::SecretsManager::Secret' && id.startsWith('StripeConnectWebhookSecret'))!;
    expect(secret).toBeDefined();
    const readers = Object.values(payouts)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.PolicyDocument).includes(`"Ref":"${secret}"`))
      .flatMap((r) => r.Properties.Roles.map((role: { Ref: string }) => role.Ref));
    expect(readers).toHaveLength(1);
    expect(readers[0]).toBe(payouts[fnIdOf('functions/payouts/routes/receive-connect-event/handler.ts')]!.Properties.Role['Fn::GetAtt'][0]);
    expect(envOf('functions/payouts/routes/receive-connect-event/handler.ts').STRIPE_CONNECT_WEBHOOK_SECRET_SECRET).toEqual({ Ref: secret });
  });

  it('runs the payouts on Royalties.MonthClosed, which the close\'s AnnounceClose step publishes before its failure check', () => {
    const rule = Object.values(payouts).find((r) => r.Type === 'AWS::Events::Rule' && JSON.stringify(r.Properties.EventPattern ?? {}).includes(ROYALTIES_MONTH_CLOSED))!;
    expect(rule.Properties.EventPattern).toMatchObject({ 'detail-type': [ROYALTIES_MONTH_CLOSED] });
    expect(JSON.stringify(rule.Properties.Targets)).toContain(fnIdOf('functions/payouts/triggers/run-payouts/handler.ts'));
    const machine = Object.values(royalties).find((r) => r.Type === 'AWS::StepFunctions::StateMachine')!;
    const definition = JSON.stringify(machine.Properties.DefinitionString);
    expect(definition).toMatch(/AnnounceClose\\"[^]*\\"Next\\":\\"AnyNotClosed\\"/);
  });

  it('gives the run and the console the stage\'s minimum, $10 unless the stage says otherwise', () => {
    for (const entry of ['functions/payouts/triggers/run-payouts/handler.ts', 'functions/payouts/routes/run-payout-month/handler.ts', 'functions/payouts/routes/retry-payout/handler.ts', 'functions/payouts/routes/record-manual-payout/handler.ts', 'functions/payouts/routes/my-payouts/handler.ts']) {
      expect({ entry, minimum: envOf(entry).PAYOUT_MINIMUM_CENTS }).toEqual({ entry, minimum: '1000' });
    }
    expect(stageConfig(new App({ context: { payoutMinimumCents: '2500' } })).payoutMinimumCents).toBe(2_500);
    expect(() => stageConfig(new App({ context: { payoutMinimumCents: -5 } }))).toThrow(/payoutMinimumCents must be a whole number of cents/);
  });

  it('alarms on the PayoutsFailed metric of this stack\'s namespace, notifying the alarm topic', () => {
    const alarm = Object.values(alarms).find((r) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.MetricName === FAILURE_METRICS.payoutFailed);
    expect(alarm?.Properties).toMatchObject({ MetricName: 'PayoutsFailed', Statistic: 'Sum', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(alarm!.Properties.Namespace).toEqual(envOf('functions/payouts/triggers/run-payouts/handler.ts').METRICS_NAMESPACE);
  });
});
