import { buildApp } from '../lib/app';

/**
 * Free-form CloudFormation JSON (property bags, intrinsic functions): each reader narrows what
 * it uses, rather than this file mirroring CloudFormation's schema for every resource type.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type CfnValue = any;

export interface CfnResource {
  Type: string;
  Properties?: Record<string, CfnValue>;
  Metadata?: Record<string, CfnValue>;
  DependsOn?: string | string[];
}
export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, CfnValue>;
}

export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';

/**
 * Synthesizes the CDK app in-process, without bundling or cdk-nag (the infra tests run
 * those), and returns the stack's CloudFormation template: the twin is driven by it.
 */
export function synthTemplate(context: Record<string, unknown> = {}): CfnTemplate {
  const { app, stack } = buildApp(
    { context: { 'aws:cdk:bundling-stacks': [], deploySites: false, ...context } },
    { nag: false },
  );
  const assembly = app.synth();
  return assembly.getStackByName(stack.stackName).template as CfnTemplate;
}

export function resourcesOfType(template: CfnTemplate, type: string): Array<[string, CfnResource]> {
  return Object.entries(template.Resources).filter(([, r]) => r.Type === type);
}

/**
 * A state machine's definition from its template resource: `Definition`, or the
 * `DefinitionString` CDK builds (an Fn::Join around the functions' ARNs), resolved and parsed.
 * DefinitionSubstitutions and DefinitionS3Location are refused: our definitions are built
 * with CDK's Step Functions constructs (decision 011) and use neither.
 */
export function stateMachineDefinition(resolver: Resolver, id: string, resource: CfnResource): object {
  const p = resource.Properties ?? {};
  for (const unsupported of ['DefinitionSubstitutions', 'DefinitionS3Location']) {
    if (p[unsupported] !== undefined) throw new Error(`The twin does not read ${unsupported} (state machine ${id})`);
  }
  if (p.Definition !== undefined) return resolver.resolve(p.Definition);
  if (p.DefinitionString === undefined) throw new Error(`State machine ${id} has no definition`);
  return JSON.parse(resolver.resolve(p.DefinitionString));
}

/** What a logical id stands for on the twin: its name (Ref) and attributes (Fn::GetAtt). */
export interface Physical {
  ref: string;
  attrs?: Record<string, string>;
}

/**
 * Resolves the intrinsic functions CDK emits (Ref, Fn::GetAtt, Fn::Join, Fn::Sub,
 * Fn::Select, Fn::Split) against the twin's physical resources. Anything it cannot resolve
 * is an error, so a template the twin does not understand fails loudly.
 */
export class Resolver {
  private readonly physical = new Map<string, Physical>();

  constructor(private readonly template: CfnTemplate) {}

  set(logicalId: string, physical: Physical): void {
    this.physical.set(logicalId, physical);
  }

  get(logicalId: string): Physical | undefined {
    return this.physical.get(logicalId);
  }

  resolve(value: CfnValue): CfnValue {
    if (Array.isArray(value)) return value.map((v) => this.resolve(v));
    if (value === null || typeof value !== 'object') return value;
    const keys = Object.keys(value);
    if (keys.length === 1) {
      const [fn] = keys;
      const arg = value[fn];
      switch (fn) {
        case 'Ref':
          return this.ref(arg);
        case 'Fn::GetAtt': {
          const [id, attr] = Array.isArray(arg) ? arg : String(arg).split('.');
          return this.getAtt(id, attr);
        }
        case 'Fn::Join': {
          const [sep, parts] = arg;
          return this.resolve(parts).join(sep);
        }
        case 'Fn::Select': {
          const [index, list] = arg;
          return this.resolve(list)[Number(this.resolve(index))];
        }
        case 'Fn::Split': {
          const [sep, source] = arg;
          return String(this.resolve(source)).split(sep);
        }
        case 'Fn::Sub': {
          const [text, vars] = Array.isArray(arg) ? arg : [arg, {}];
          const resolvedVars = this.resolve(vars ?? {});
          return String(text).replace(/\$\{([^}]+)\}/g, (_, name: string) => {
            if (name in resolvedVars) return String(resolvedVars[name]);
            return name.includes('.') ? this.getAtt(...(name.split('.') as [string, string])) : this.ref(name);
          });
        }
      }
      if (fn.startsWith('Fn::')) throw new Error(`The twin cannot resolve ${fn}`);
    }
    return Object.fromEntries(keys.map((k) => [k, this.resolve(value[k])]));
  }

  private ref(id: string): string {
    switch (id) {
      case 'AWS::Region':
        return LOCAL_REGION;
      case 'AWS::AccountId':
        return LOCAL_ACCOUNT;
      case 'AWS::Partition':
        return 'aws';
      case 'AWS::URLSuffix':
        return 'amazonaws.com';
      case 'AWS::StackName':
        return 'local';
      case 'AWS::NoValue':
        return undefined as unknown as string;
    }
    const p = this.physical.get(id);
    if (!p) throw new Error(`The twin has no resource for Ref ${id} (${this.template.Resources[id]?.Type ?? 'unknown'})`);
    return p.ref;
  }

  private getAtt(id: string, attr: string): string {
    const p = this.physical.get(id);
    const value = p?.attrs?.[attr];
    if (value === undefined) {
      throw new Error(`The twin has no attribute ${attr} of ${id} (${this.template.Resources[id]?.Type ?? 'unknown'})`);
    }
    return value;
  }
}
