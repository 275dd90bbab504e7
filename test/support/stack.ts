import { Template } from 'aws-cdk-lib/assertions';
import { buildApp } from '../../infra/lib/app';

type Statement = { Action: string | string[]; Resource: unknown; Effect?: string };

/** The stack's template (no bundling, no cdk-nag: stack.test.ts runs nag) with lookup helpers. */
export function synthStack(context: Record<string, unknown> = {}) {
  const { stack } = buildApp({ context: { 'aws:cdk:bundling-stacks': [], deploySites: false, stage: 'test', ...context } }, { nag: false });
  const template = Template.fromStack(stack);

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

  const routeKeys = () => Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties);
  return { stack, template, logicalId, statementsOf, routeKeys };
}

export const actionsOf = (s: { Action: string | string[] }) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
/** A function's actions other than writing its own logs. */
export const nonLogActions = (statements: Statement[]) => statements.flatMap(actionsOf).filter((a) => !a.startsWith('logs:')).sort();
