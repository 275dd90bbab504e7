import { Template } from 'aws-cdk-lib/assertions';
import { buildApp } from '../../infra/lib/app';
import { synthTemplate, synthesizedApp } from '../../infra/local/template';

type Statement = { Action: string | string[]; Resource: unknown; Effect?: string; Condition?: unknown };

/** The app of the `test` stage with `context` over its defaults (no bundling), synthesized once per run (decision 034). */
export const testApp = (context: Record<string, unknown> = {}, options: { nag?: boolean } = {}) => synthesizedApp({ stage: 'test', ...context }, options);

/**
 * A stage that names its own site and addresses over the test stage's defaults. The files that
 * check where these settings reach share this one context, so a run synthesizes it once.
 */
export const NAMED_STAGE = { siteUrl: 'https://humanly.example', contactEmail: 'team@studio.test', alarmEmail: 'alarms@studio.test' };

/** The stack's constructs, built and not synthesized: for what only a construct tells (a value before it is resolved). */
export const buildStack = (context: Record<string, unknown> = {}) =>
  buildApp({ context: { 'aws:cdk:bundling-stacks': [], deploySites: false, stage: 'test', ...context } }, { nag: false }).stack;

/**
 * The stack's template (no bundling; cdk-nag's findings are stack.test.ts's) with lookup
 * helpers, and `nested(path)`, the template of the nested stack at that construct path under
 * the stack ('Generation', 'Alarms'). Files asking for the same context share one synthesis.
 */
export function synthStack(context: Record<string, unknown> = {}) {
  const app = testApp(context);
  const template = Template.fromJSON(app.template);
  const nested = (at: string) => {
    if (!app.nested[at]) throw new Error(`no nested stack ${at} (there are: ${Object.keys(app.nested).join(', ')})`);
    return Template.fromJSON(app.nested[at].template);
  };

  const { logicalId, statementsOf } = templateQueries(template);

  const routeKeys = () => Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties);
  return { template, nested, logicalId, statementsOf, routeKeys };
}

/** Lookups on a template: a resource's logical id by its prefix, and the IAM statements of a function's role. */
function templateQueries(template: Template) {
  const logicalId = (type: string, prefix: string) => {
    const id = Object.keys(template.findResources(type)).find((k) => k.startsWith(prefix));
    if (!id) throw new Error(`no ${type} ${prefix}`);
    return id;
  };

  /** Every IAM statement attached to a function's role, flattened. */
  const statementsOf = (functionPrefix: string): Statement[] => {
    const fn = template.findResources('AWS::Lambda::Function')[logicalId('AWS::Lambda::Function', functionPrefix)];
    const roleId = fn.Properties.Role['Fn::GetAtt'][0];
    return Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
  };
  return { logicalId, statementsOf };
}

/**
 * The app's template with its nested stacks flattened in, as the twin reads it (decision 032): a
 * reference across stacks reads as the resource it names. With the same lookups as synthStack.
 */
export function flattenedStack() {
  const template = Template.fromJSON(synthTemplate({ stage: 'test' }));
  return { template, ...templateQueries(template) };
}

export const actionsOf = (s: { Action: string | string[] }) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
/** A function's actions other than writing its own logs. */
export const nonLogActions = (statements: Statement[]) => statements.flatMap(actionsOf).filter((a) => !a.startsWith('logs:')).sort();
