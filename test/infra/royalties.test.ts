// The Royalties nested stack as deployed (docs/royalties.md): the stage's promotional cap reaches
// the functions that build statements; the RoyaltyClose machine reports each statement it could
// not close through ReportNotClosed; and the StatementsNotClosed metric it writes has an alarm on
// the alarm topic.
import { App } from 'aws-cdk-lib';
import { FAILURE_METRICS } from '../../events/metrics';
import { DEFAULT_PROMOTIONAL_ROYALTY_CAP_CENTS } from '../../events/royalty-values';
import { stageConfig } from '../../infra/lib/platform/stage-config';
import { synthStack } from '../support/stack';

const { nested } = synthStack();
type Resource = { Type: string; Properties: Record<string, any>; Metadata?: Record<string, unknown> }; // eslint-disable-line @typescript-eslint/no-explicit-any
const royalties = nested('Royalties').toJSON().Resources as Record<string, Resource>;
const alarms = nested('Alarms').toJSON().Resources as Record<string, Resource>;
const fnOf = (entry: string) => Object.values(royalties).find((r) => r.Type === 'AWS::Lambda::Function' && r.Metadata?.['app:entry'] === entry);

describe('the promotional royalty cap (decision 037)', () => {
  it('is $25 unless the stage says otherwise, and a bad value is refused by name', () => {
    expect(DEFAULT_PROMOTIONAL_ROYALTY_CAP_CENTS).toBe(2_500);
    expect(stageConfig(new App()).promotionalRoyaltyCapCents).toBe(2_500);
    expect(stageConfig(new App({ context: { promotionalRoyaltyCapCents: '1000' } })).promotionalRoyaltyCapCents).toBe(1_000);
    expect(stageConfig(new App({ context: { promotionalRoyaltyCapCents: 0 } })).promotionalRoyaltyCapCents).toBe(0);
    for (const bad of [-1, 12.5, 'lots', '']) {
      expect(() => stageConfig(new App({ context: { promotionalRoyaltyCapCents: bad } }))).toThrow(/promotionalRoyaltyCapCents must be a whole number of cents of 0 or more/);
    }
  });

  it('reaches the close, which records it on each statement, and this month\'s live earnings', () => {
    for (const entry of ['functions/royalties/steps/close-talent-month/handler.ts', 'functions/royalties/routes/get-my-earnings/handler.ts']) {
      expect({ entry, cap: fnOf(entry)?.Properties.Environment?.Variables?.PROMOTIONAL_ROYALTY_CAP_CENTS }).toEqual({ entry, cap: '2500' });
    }
  });
});

describe('a statement the monthly close cannot close', () => {
  it('is reported by ReportNotClosed, caught after CloseTalentMonth\'s retries, and the execution then fails', () => {
    const report = fnOf('functions/royalties/steps/report-not-closed/handler.ts');
    expect(report).toBeDefined();
    const machine = Object.values(royalties).find((r) => r.Type === 'AWS::StepFunctions::StateMachine')!;
    const definition = JSON.stringify(machine.Properties.DefinitionString);
    expect(definition).toContain('\\"Next\\":\\"ReportNotClosed\\"');
    expect(definition).toContain('\\"Error\\":\\"StatementsNotClosed\\"');
    expect(definition).toContain('MonthNotEnded');
  });

  it('alarms: the StatementsNotClosed metric of this stack\'s namespace, any count in 5 minutes, notifying the alarm topic', () => {
    const alarm = Object.values(alarms).find((r) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.MetricName === FAILURE_METRICS.statementNotClosed);
    expect(alarm?.Properties).toMatchObject({
      MetricName: 'StatementsNotClosed',
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    // The namespace the functions write to (METRICS_NAMESPACE on every function) is the one watched.
    const written = fnOf('functions/royalties/steps/report-not-closed/handler.ts')!.Properties.Environment.Variables.METRICS_NAMESPACE;
    expect(alarm!.Properties.Namespace).toEqual(written);
    const topic = Object.keys(alarms).find((id) => alarms[id]!.Type === 'AWS::SNS::Topic')!;
    expect(alarm!.Properties.AlarmActions).toEqual([{ Ref: topic }]);
  });
});
