import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { cachedSynth, type SynthesizedApp } from './synth-cache';

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
  Parameters?: Record<string, CfnValue>;
}

export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';

/**
 * Synthesizes the CDK app without bundling (and without cdk-nag unless asked: the infra tests
 * run it), or takes the same synthesis from the cache (`synth-cache.ts`, decision 034).
 */
export function synthesizedApp(context: Record<string, unknown> = {}, { nag = false }: { nag?: boolean } = {}): SynthesizedApp {
  return cachedSynth(require.resolve('../lib/app'), { 'aws:cdk:bundling-stacks': [], deploySites: false, ...context }, nag, synthesize);
}

/**
 * The stack's CloudFormation template with its nested stacks flattened into it
 * (`flattenNestedStacks`): the twin is driven by it.
 */
export function synthTemplate(context: Record<string, unknown> = {}): CfnTemplate {
  const app = synthesizedApp(context);
  return flattenNestedStacks(app.template, nestedTemplatesOf(app, ''));
}

/** The template of every nested stack directly under the one at `parent` ('' for the stack), by its logical id there. */
function nestedTemplatesOf(app: SynthesizedApp, parent: string): Map<string, NestedTemplate> {
  return new Map(
    Object.entries(app.nested)
      .filter(([, n]) => n.parent === parent)
      .map(([at, n]) => [n.logicalId, { template: n.template as CfnTemplate, nested: nestedTemplatesOf(app, at) }]),
  );
}

function synthesize(context: Record<string, unknown>, nag: boolean): SynthesizedApp {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk.out-'));
  try {
    // The CDK app and library load only on a cache miss: most twins start from the cached synthesis.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on a cache miss only
    const { buildApp } = require('../lib/app') as typeof import('../lib/app');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the same
    const { NestedStack } = require('aws-cdk-lib') as typeof import('aws-cdk-lib');
    const { app, stack } = buildApp({ outdir, context }, { nag });
    let error: string | undefined;
    try {
      app.synth();
    } catch (err) {
      // cdk-nag's errors fail the synthesis after writing their report, which the infra tests read.
      if (!nag) throw err;
      error = (err as Error).message;
    }
    const reportFile = path.join(outdir, 'validation-report.json');
    const findings = nag ? { report: fs.existsSync(reportFile) ? JSON.parse(fs.readFileSync(reportFile, 'utf8')) : null, ...(error && { error }) } : undefined;
    if (error) return { ...synthesize(context, false), nag: findings };
    const read = (file: string) => JSON.parse(fs.readFileSync(path.join(outdir, file), 'utf8')) as CfnTemplate;
    const pathOf = (c: IConstruct) => (c === stack ? '' : c.node.path.slice(stack.node.path.length + 1));
    const nested: SynthesizedApp['nested'] = {};
    for (const c of stack.node.findAll()) {
      if (!(c instanceof NestedStack) || !c.nestedStackResource || !c.nestedStackParent) continue;
      nested[pathOf(c)] = { logicalId: (c.nestedStackParent as Stack).getLogicalId(c.nestedStackResource), parent: pathOf(c.nestedStackParent), template: read(c.templateFile) };
    }
    return { template: read(stack.templateFile), nested, ...(findings && { nag: findings }) };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

interface NestedTemplate {
  template: CfnTemplate;
  nested: Map<string, NestedTemplate>;
}

/**
 * One template holding the parent's resources and those of its nested stacks (decision 026):
 * a nested stack's `Ref` to one of its parameters becomes the value the parent passes, and the
 * parent's `Fn::GetAtt [Nested, Outputs.X]` becomes the nested output's value. Logical ids are
 * kept (CDK derives them from construct paths), except a nested one its parent uses too, which
 * gets the nested stack's id as a prefix. The `AWS::CloudFormation::Stack` resources are dropped.
 */
export function flattenNestedStacks(template: CfnTemplate, nested: Map<string, NestedTemplate>): CfnTemplate {
  const resources: Record<string, CfnResource> = {};
  const outputsOf = new Map<string, Record<string, CfnValue>>();
  for (const [id, r] of Object.entries(template.Resources)) {
    const child = nested.get(id);
    if (r.Type !== 'AWS::CloudFormation::Stack' || !child) {
      resources[id] = r;
      continue;
    }
    const params = (r.Properties?.Parameters ?? {}) as Record<string, CfnValue>;
    const inner = flattenNestedStacks(child.template, child.nested);
    const bound = substitute(inner, (v) => {
      if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && typeof v.Ref === 'string' && v.Ref in params) {
        return { value: params[v.Ref] };
      }
      return undefined;
    }) as CfnTemplate;
    // Singletons (CDK's custom resource providers) have the same logical id in every stack:
    // those of the nested stack get its id as a prefix.
    const clashes = new Map(
      Object.keys(bound.Resources)
        .filter((innerId) => innerId in template.Resources || innerId in resources)
        .map((innerId) => [innerId, `${id}${innerId}`]),
    );
    const renamed = clashes.size ? renameLogicalIds(bound, clashes) : bound;
    for (const [innerId, innerResource] of Object.entries(renamed.Resources)) resources[innerId] = innerResource;
    outputsOf.set(id, Object.fromEntries(Object.entries(renamed.Outputs ?? {}).map(([name, o]) => [name, (o as { Value: CfnValue }).Value])));
  }
  const flat = { ...template, Resources: resources };
  return substitute(flat, (v) => {
    const getAtt = v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 ? v['Fn::GetAtt'] : undefined;
    if (!Array.isArray(getAtt) || !outputsOf.has(getAtt[0]) || !String(getAtt[1]).startsWith('Outputs.')) return undefined;
    const name = String(getAtt[1]).slice('Outputs.'.length);
    const outputs = outputsOf.get(getAtt[0])!;
    if (!(name in outputs)) throw new Error(`Nested stack ${getAtt[0]} has no output ${name}`);
    return { value: outputs[name] };
  }) as CfnTemplate;
}

/** The template with the given logical ids renamed, in its resources and in every reference to them. */
function renameLogicalIds(template: CfnTemplate, names: Map<string, string>): CfnTemplate {
  const to = (id: string) => names.get(id) ?? id;
  const body = substitute({ Resources: template.Resources, Outputs: template.Outputs }, (v) => {
    if (!v || typeof v !== 'object' || Array.isArray(v) || Object.keys(v).length !== 1) return undefined;
    if (typeof v.Ref === 'string' && names.has(v.Ref)) return { value: { Ref: to(v.Ref) } };
    const getAtt = v['Fn::GetAtt'];
    if (Array.isArray(getAtt) && names.has(getAtt[0])) return { value: { 'Fn::GetAtt': [to(getAtt[0]), ...getAtt.slice(1)] } };
    const sub = v['Fn::Sub'];
    if (sub !== undefined) {
      const rename = (text: string) => text.replace(/\$\{([^}.!]+)([^}]*)\}/g, (m, ref: string, rest: string) => (names.has(ref) ? `\${${to(ref)}${rest}}` : m));
      return { value: { 'Fn::Sub': Array.isArray(sub) ? [rename(sub[0]), substitute(sub[1], () => undefined)] : rename(sub) } };
    }
    return undefined;
  }) as CfnTemplate;
  const resources = Object.fromEntries(
    Object.entries(body.Resources).map(([id, r]) => {
      const dependsOn = r.DependsOn === undefined ? undefined : Array.isArray(r.DependsOn) ? r.DependsOn.map(to) : to(r.DependsOn);
      return [to(id), dependsOn === undefined ? r : { ...r, DependsOn: dependsOn }];
    }),
  );
  return { ...template, Resources: resources, Outputs: body.Outputs };
}

/** A deep copy of `value` where `replace` may swap any node (it answers `{ value }` to do so). */
function substitute(value: CfnValue, replace: (v: CfnValue) => { value: CfnValue } | undefined): CfnValue {
  const hit = replace(value);
  if (hit) return hit.value;
  if (Array.isArray(value)) return value.map((v) => substitute(v, replace));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, replace)]));
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
