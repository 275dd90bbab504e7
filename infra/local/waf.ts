// The twin's WAF (decision 040): evaluates a web ACL of the synthesized template the way AWS WAF
// does, on the requests that reach the twin's Cognito endpoint. It must never be more permissive
// than AWS: rate-based rules count every request that reaches them and matches their scope-down
// statement, per aggregation key, over a sliding window of exactly `EvaluationWindowSec`, and
// block the request that takes the count past `Limit` (AWS checks the rate every few seconds, so
// it may let a few more through; the twin lets none). A statement or key the twin cannot
// evaluate (managed rule groups, IP sets, geography, labels) makes the ACL refuse to load rather
// than be skipped.
import type { CfnTemplate, Resolver } from './template';
import { resourcesOfType } from './template';

/** What WAF reads of a request. Header names in lower case. */
export interface WafRequest {
  /** The caller's address (the socket's remote address on the twin). */
  ip: string;
  method: string;
  uriPath: string;
  /** The query string without `?`. */
  queryString: string;
  headers: Record<string, string | undefined>;
  body?: Buffer;
}

export interface WafDecision {
  action: 'allow' | 'block';
  /** The rule that terminated the evaluation, if one did. */
  rule?: string;
}

/** A web ACL's properties as CloudFormation writes them (`AWS::WAFv2::WebACL`). */
type CfnProps = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export class WafUnsupportedError extends Error {
  override name = 'WafUnsupportedError';
}

type Predicate = (req: WafRequest) => boolean;
/** The aggregation key of a request, or undefined when a component is missing (not counted). */
type KeyOf = (req: WafRequest) => string | undefined;

interface CompiledRule {
  name: string;
  priority: number;
  action: 'allow' | 'block' | 'count';
  matches: (req: WafRequest, now: number) => boolean;
}

const only = (o: CfnProps | undefined): [string, CfnProps] => {
  const keys = Object.keys(o ?? {});
  if (keys.length !== 1) throw new WafUnsupportedError(`expected one member, got ${JSON.stringify(o)}`);
  return [keys[0], o![keys[0]]];
};

function transform(value: string, transformations: CfnProps[] | undefined): string {
  const ordered = [...(transformations ?? [])].sort((a, b) => Number(a.Priority) - Number(b.Priority));
  return ordered.reduce((v: string, t) => {
    switch (t.Type) {
      case 'NONE':
        return v;
      case 'LOWERCASE':
        return v.toLowerCase();
      case 'URL_DECODE':
        try {
          return decodeURIComponent(v.replace(/\+/g, ' '));
        } catch {
          return v;
        }
      case 'COMPRESS_WHITE_SPACE':
        return v.replace(/[\s\f\v]+/g, ' ');
      default:
        throw new WafUnsupportedError(`text transformation ${t.Type}`);
    }
  }, value);
}

/** The part of the request a `FieldToMatch` names, or undefined when the request has none. */
function field(fieldToMatch: CfnProps): (req: WafRequest) => string | undefined {
  const [kind, spec] = only(fieldToMatch);
  switch (kind) {
    case 'SingleHeader': {
      const name = String(spec.Name).toLowerCase();
      return (req) => req.headers[name];
    }
    case 'Method':
      return (req) => req.method.toUpperCase();
    case 'UriPath':
      return (req) => req.uriPath;
    case 'QueryString':
      return (req) => req.queryString;
    case 'SingleQueryArgument': {
      const name = String(spec.Name).toLowerCase();
      return (req) => {
        for (const [k, v] of new URLSearchParams(req.queryString)) if (k.toLowerCase() === name) return v;
        return undefined;
      };
    }
    case 'Body':
      return (req) => req.body?.toString('utf8') ?? '';
    default:
      throw new WafUnsupportedError(`field to match ${kind}`);
  }
}

const WORD = /[A-Za-z0-9_]/;

function positional(constraint: string, search: string): (value: string) => boolean {
  switch (constraint) {
    case 'EXACTLY':
      return (v) => v === search;
    case 'STARTS_WITH':
      return (v) => v.startsWith(search);
    case 'ENDS_WITH':
      return (v) => v.endsWith(search);
    case 'CONTAINS':
      return (v) => v.includes(search);
    case 'CONTAINS_WORD':
      return (v) => {
        for (let at = v.indexOf(search); at !== -1; at = v.indexOf(search, at + 1)) {
          const before = at === 0 ? '' : v[at - 1];
          const after = v[at + search.length] ?? '';
          if (!WORD.test(before) && !WORD.test(after)) return true;
        }
        return false;
      };
    default:
      throw new WafUnsupportedError(`positional constraint ${constraint}`);
  }
}

function statement(s: CfnProps): Predicate {
  const [kind, spec] = only(s);
  switch (kind) {
    case 'ByteMatchStatement': {
      const read = field(spec.FieldToMatch);
      const search = spec.SearchString ?? Buffer.from(String(spec.SearchStringBase64 ?? ''), 'base64').toString('utf8');
      const test = positional(spec.PositionalConstraint, String(search));
      // Fail on an unsupported transformation now, not on the first request.
      transform('', spec.TextTransformations);
      return (req) => {
        const value = read(req);
        return value !== undefined && test(transform(value, spec.TextTransformations));
      };
    }
    case 'AndStatement': {
      const parts = (spec.Statements as CfnProps[]).map(statement);
      return (req) => parts.every((p) => p(req));
    }
    case 'OrStatement': {
      const parts = (spec.Statements as CfnProps[]).map(statement);
      return (req) => parts.some((p) => p(req));
    }
    case 'NotStatement': {
      const inner = statement(spec.Statement);
      return (req) => !inner(req);
    }
    default:
      throw new WafUnsupportedError(`statement ${kind}`);
  }
}

/** The first address of a forwarded-IP header; `fallback` says what a missing or malformed one does. */
function forwardedIp(config: CfnProps | undefined): (req: WafRequest) => string | undefined {
  if (!config?.HeaderName) throw new WafUnsupportedError('a forwarded IP key without ForwardedIPConfig');
  const name = String(config.HeaderName).toLowerCase();
  return (req) => {
    const first = req.headers[name]?.split(',')[0]?.trim();
    if (first && /^[0-9a-fA-F:.]+$/.test(first)) return first;
    // MATCH: every malformed request counts under one key; NO_MATCH: not counted.
    return config.FallbackBehavior === 'MATCH' ? '(no valid address)' : undefined;
  };
}

function customKey(key: CfnProps, forwarded: CfnProps | undefined): KeyOf {
  const [kind, spec] = only(key);
  switch (kind) {
    case 'IP':
      return (req) => req.ip;
    case 'ForwardedIP':
      return forwardedIp(forwarded);
    case 'HTTPMethod':
      return (req) => req.method.toUpperCase();
    case 'UriPath':
      return (req) => transform(req.uriPath, spec.TextTransformations);
    case 'QueryString':
      return (req) => (req.queryString ? transform(req.queryString, spec.TextTransformations) : undefined);
    case 'Header': {
      const read = field({ SingleHeader: { Name: spec.Name } });
      return (req) => {
        const value = read(req);
        return value === undefined ? undefined : transform(value, spec.TextTransformations);
      };
    }
    case 'QueryArgument': {
      const read = field({ SingleQueryArgument: { Name: spec.Name } });
      return (req) => {
        const value = read(req);
        return value === undefined ? undefined : transform(value, spec.TextTransformations);
      };
    }
    default:
      throw new WafUnsupportedError(`aggregation key ${kind}`);
  }
}

function aggregation(spec: CfnProps): KeyOf {
  switch (spec.AggregateKeyType ?? 'IP') {
    case 'IP':
      return (req) => req.ip;
    case 'FORWARDED_IP':
      return forwardedIp(spec.ForwardedIPConfig);
    case 'CONSTANT':
      return () => 'constant';
    case 'CUSTOM_KEYS': {
      const keys = ((spec.CustomKeys ?? []) as CfnProps[]).map((k) => customKey(k, spec.ForwardedIPConfig));
      if (!keys.length) throw new WafUnsupportedError('CUSTOM_KEYS without keys');
      return (req) => {
        const parts: string[] = [];
        for (const key of keys) {
          const part = key(req);
          if (part === undefined) return undefined;
          parts.push(part);
        }
        return JSON.stringify(parts);
      };
    }
    default:
      throw new WafUnsupportedError(`aggregate key type ${spec.AggregateKeyType}`);
  }
}

/** The times of the requests counted under each key, newest last. */
class SlidingCounts {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly windowMs: number) {}

  /** Counts one request at `now` under `key`; answers how many fall in the window ending now. */
  add(key: string, now: number): number {
    const since = now - this.windowMs;
    const times = (this.hits.get(key) ?? []).filter((t) => t > since);
    times.push(now);
    this.hits.set(key, times);
    return times.length;
  }
}

function rateBased(spec: CfnProps): (req: WafRequest, now: number) => boolean {
  const limit = Number(spec.Limit);
  const windowSec = Number(spec.EvaluationWindowSec ?? 300);
  if (!Number.isInteger(limit) || limit < 1) throw new WafUnsupportedError(`rate limit ${spec.Limit}`);
  if (![60, 120, 300, 600].includes(windowSec)) throw new WafUnsupportedError(`evaluation window ${spec.EvaluationWindowSec}`);
  const scope = spec.ScopeDownStatement ? statement(spec.ScopeDownStatement) : () => true;
  const keyOf = aggregation(spec);
  const counts = new SlidingCounts(windowSec * 1000);
  return (req, now) => {
    if (!scope(req)) return false;
    const key = keyOf(req);
    if (key === undefined) return false;
    return counts.add(key, now) > limit;
  };
}

function ruleAction(rule: CfnProps): CompiledRule['action'] {
  if (rule.OverrideAction) throw new WafUnsupportedError(`rule ${rule.Name}: rule groups (OverrideAction)`);
  const [kind] = only(rule.Action);
  switch (kind) {
    case 'Allow':
      return 'allow';
    case 'Count':
      return 'count';
    // A CAPTCHA or challenge cannot be answered by an API call: to a script it is a block.
    case 'Block':
    case 'Captcha':
    case 'Challenge':
      return 'block';
    default:
      throw new WafUnsupportedError(`rule ${rule.Name}: action ${kind}`);
  }
}

function compileRule(rule: CfnProps): CompiledRule {
  const [kind, spec] = only(rule.Statement);
  let matches: CompiledRule['matches'];
  try {
    if (kind === 'RateBasedStatement') matches = rateBased(spec);
    else {
      const predicate = statement(rule.Statement);
      matches = (req) => predicate(req);
    }
  } catch (err) {
    if (err instanceof WafUnsupportedError) throw new WafUnsupportedError(`rule ${rule.Name}: ${err.message}`);
    throw err;
  }
  return { name: String(rule.Name), priority: Number(rule.Priority), action: ruleAction(rule), matches };
}

/**
 * One web ACL, compiled from its template properties: `evaluate` runs its rules in priority
 * order, counting each request where a rate-based rule sees it, as AWS WAF does.
 */
export class WebAclEvaluator {
  private readonly rules: CompiledRule[];
  private readonly defaultAction: 'allow' | 'block';

  constructor(
    readonly name: string,
    properties: CfnProps,
    private readonly now: () => number = Date.now,
  ) {
    this.rules = ((properties.Rules ?? []) as CfnProps[]).map(compileRule).sort((a, b) => a.priority - b.priority);
    const [action] = only(properties.DefaultAction);
    this.defaultAction = action === 'Block' ? 'block' : 'allow';
  }

  evaluate(req: WafRequest): WafDecision {
    const now = this.now();
    for (const rule of this.rules) {
      if (!rule.matches(req, now)) continue;
      if (rule.action === 'count') continue;
      return { action: rule.action, rule: rule.name };
    }
    return { action: this.defaultAction };
  }
}

/** The logical id a `{ Ref }` or `{ Fn::GetAtt }` names. */
const logicalIdOf = (value: unknown): string | undefined =>
  (value as { Ref?: string })?.Ref ?? (value as { 'Fn::GetAtt'?: string[] })?.['Fn::GetAtt']?.[0];

/** A web ACL of the template associated with a resource (`AWS::WAFv2::WebACLAssociation`). */
export interface AssociatedWebAcl {
  associationId: string;
  webAclId: string;
  /** The web ACL's properties, intrinsics resolved. */
  properties: CfnProps;
}

/** The web ACL associated with the resource `resourceLogicalId` (the user pool), if any. */
export function associatedWebAcl(template: CfnTemplate, resolver: Resolver, resourceLogicalId: string): AssociatedWebAcl | undefined {
  for (const [associationId, association] of resourcesOfType(template, 'AWS::WAFv2::WebACLAssociation')) {
    if (logicalIdOf(association.Properties?.ResourceArn) !== resourceLogicalId) continue;
    const webAclId = logicalIdOf(association.Properties?.WebACLArn);
    const acl = webAclId ? template.Resources[webAclId] : undefined;
    if (!webAclId || acl?.Type !== 'AWS::WAFv2::WebACL') throw new WafUnsupportedError(`association ${associationId} names no web ACL of the template`);
    return { associationId, webAclId, properties: resolver.resolve(acl.Properties ?? {}) };
  }
  return undefined;
}

/** WAF's answer to a request it blocks at a Cognito user pool's API: Cognito's ForbiddenException. */
export const COGNITO_WAF_BLOCK = {
  status: 403,
  errorType: 'ForbiddenException',
  body: { __type: 'ForbiddenException', message: 'Request not allowed due to WAF block.' },
} as const;
