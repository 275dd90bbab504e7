import { WafUnsupportedError, WebAclEvaluator, type WafRequest } from '../../../infra/local/waf';

// The twin's WAF (decision 040) against the rules as the template writes them.
const target = (operation: string) => ({
  ByteMatchStatement: {
    FieldToMatch: { SingleHeader: { Name: 'x-amz-target' } },
    PositionalConstraint: 'EXACTLY',
    SearchString: `AWSCognitoIdentityProviderService.${operation}`,
    TextTransformations: [{ Priority: 0, Type: 'NONE' }],
  },
});
const perIp = (name: string, priority: number, limit: number, operations: string[], window = 300) => ({
  Name: name,
  Priority: priority,
  Action: { Block: {} },
  VisibilityConfig: { CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true, MetricName: name },
  Statement: {
    RateBasedStatement: {
      AggregateKeyType: 'IP',
      Limit: limit,
      EvaluationWindowSec: window,
      ScopeDownStatement: operations.length === 1 ? target(operations[0]) : { OrStatement: { Statements: operations.map(target) } },
    },
  },
});
const acl = (rules: unknown[]) => ({ Scope: 'REGIONAL', DefaultAction: { Allow: {} }, Rules: rules });

const call = (operation: string, ip = '127.1.1.1'): WafRequest => ({
  ip,
  method: 'POST',
  uriPath: '/',
  queryString: '',
  headers: { 'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`, 'content-type': 'application/x-amz-json-1.1' },
});

function clock(start = Date.UTC(2026, 10, 27, 12)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('the twin WAF: rate-based rules', () => {
  it('lets `limit` matching calls from one address through in the window and blocks the next, naming the rule', () => {
    const time = clock();
    const waf = new WebAclEvaluator('pool', acl([perIp('codes', 0, 10, ['SignUp', 'ForgotPassword'])]), time.now);
    for (let i = 0; i < 10; i++) expect(waf.evaluate(call(i % 2 ? 'SignUp' : 'ForgotPassword'))).toEqual({ action: 'allow' });
    expect(waf.evaluate(call('SignUp'))).toEqual({ action: 'block', rule: 'codes' });
  });

  it('counts each address apart, and only the operations its scope-down names', () => {
    const waf = new WebAclEvaluator('pool', acl([perIp('codes', 0, 10, ['SignUp'])]), clock().now);
    for (let i = 0; i < 10; i++) waf.evaluate(call('SignUp', '127.9.9.9'));
    expect(waf.evaluate(call('SignUp', '127.9.9.9')).action).toBe('block');
    expect(waf.evaluate(call('SignUp', '127.9.9.10')).action).toBe('allow');
    // Other calls of the blocked address are not this rule's.
    for (let i = 0; i < 20; i++) expect(waf.evaluate(call('InitiateAuth', '127.9.9.9')).action).toBe('allow');
    // A request without the header is not matched either.
    expect(waf.evaluate({ ...call('SignUp', '127.9.9.9'), headers: {} }).action).toBe('allow');
  });

  it('counts a call for exactly the window: the limit+1st inside it is blocked, none older counts', () => {
    const time = clock();
    const waf = new WebAclEvaluator('pool', acl([perIp('codes', 0, 10, ['SignUp'], 300)]), time.now);
    for (let i = 0; i < 10; i++) waf.evaluate(call('SignUp'));
    time.advance(299_999);
    expect(waf.evaluate(call('SignUp')).action).toBe('block');
    // 300 s after the first ten they are out of the window; the blocked call alone is left in it.
    time.advance(1);
    expect(waf.evaluate(call('SignUp')).action).toBe('allow');
  });

  it('counts blocked calls too: a script that keeps calling stays blocked', () => {
    const time = clock();
    const waf = new WebAclEvaluator('pool', acl([perIp('codes', 0, 10, ['SignUp'], 300)]), time.now);
    for (let i = 0; i < 10; i++) waf.evaluate(call('SignUp'));
    time.advance(200_000);
    for (let i = 0; i < 10; i++) expect(waf.evaluate(call('SignUp')).action).toBe('block');
    // The first ten have left the window, the ten blocked ones have not.
    time.advance(100_000);
    expect(waf.evaluate(call('SignUp')).action).toBe('block');
    time.advance(300_000);
    expect(waf.evaluate(call('SignUp')).action).toBe('allow');
  });

  it('runs rules in priority order: an earlier block ends the evaluation before a later rule counts', () => {
    const time = clock();
    const waf = new WebAclEvaluator('pool', acl([perIp('everything', 1, 100, ['SignUp']), perIp('codes', 0, 10, ['SignUp'])]), time.now);
    for (let i = 0; i < 10; i++) waf.evaluate(call('SignUp'));
    expect(waf.evaluate(call('SignUp'))).toEqual({ action: 'block', rule: 'codes' });
  });

  it('aggregates by a forwarded address, by a custom key or as one constant count', () => {
    const rate = (spec: Record<string, unknown>) =>
      new WebAclEvaluator('pool', acl([{ Name: 'r', Priority: 0, Action: { Block: {} }, Statement: { RateBasedStatement: { Limit: 10, EvaluationWindowSec: 60, ...spec } } }]), clock().now);
    const constant = rate({ AggregateKeyType: 'CONSTANT' });
    for (let i = 0; i < 10; i++) constant.evaluate(call('SignUp', `127.0.0.${i + 2}`));
    expect(constant.evaluate(call('SignUp', '127.8.8.8')).action).toBe('block');

    const forwarded = rate({ AggregateKeyType: 'FORWARDED_IP', ForwardedIPConfig: { HeaderName: 'X-Forwarded-For', FallbackBehavior: 'NO_MATCH' } });
    const from = (ip: string) => ({ ...call('SignUp'), headers: { 'x-forwarded-for': `${ip}, 10.0.0.1` } });
    for (let i = 0; i < 10; i++) forwarded.evaluate(from('203.0.113.7'));
    expect(forwarded.evaluate(from('203.0.113.7')).action).toBe('block');
    expect(forwarded.evaluate(from('203.0.113.8')).action).toBe('allow');
    // NO_MATCH: a request without a valid forwarded address is not counted.
    for (let i = 0; i < 20; i++) expect(forwarded.evaluate(call('SignUp')).action).toBe('allow');

    const custom = rate({ AggregateKeyType: 'CUSTOM_KEYS', CustomKeys: [{ IP: {} }, { Header: { Name: 'x-amz-target', TextTransformations: [{ Priority: 0, Type: 'NONE' }] } }] });
    for (let i = 0; i < 10; i++) custom.evaluate(call('SignUp'));
    expect(custom.evaluate(call('SignUp')).action).toBe('block');
    expect(custom.evaluate(call('InitiateAuth')).action).toBe('allow');
  });

  it('evaluates byte matches with their positional constraint and transformations, and And/Not statements', () => {
    const rule = (statement: unknown) => new WebAclEvaluator('edge', acl([{ Name: 'm', Priority: 0, Action: { Block: {} }, Statement: statement }]));
    const byPath = rule({
      AndStatement: {
        Statements: [
          { ByteMatchStatement: { FieldToMatch: { Method: {} }, PositionalConstraint: 'EXACTLY', SearchString: 'POST', TextTransformations: [{ Priority: 0, Type: 'NONE' }] } },
          {
            NotStatement: {
              Statement: { ByteMatchStatement: { FieldToMatch: { UriPath: {} }, PositionalConstraint: 'STARTS_WITH', SearchString: '/admin/', TextTransformations: [{ Priority: 0, Type: 'LOWERCASE' }] } },
            },
          },
        ],
      },
    });
    expect(byPath.evaluate({ ...call('x'), uriPath: '/contact' }).action).toBe('block');
    expect(byPath.evaluate({ ...call('x'), uriPath: '/ADMIN/users' }).action).toBe('allow');
    expect(byPath.evaluate({ ...call('x'), method: 'GET', uriPath: '/contact' }).action).toBe('allow');
    const word = rule({ ByteMatchStatement: { FieldToMatch: { QueryString: {} }, PositionalConstraint: 'CONTAINS_WORD', SearchString: 'bot', TextTransformations: [{ Priority: 0, Type: 'URL_DECODE' }] } });
    expect(word.evaluate({ ...call('x'), queryString: 'who=a%20bot' }).action).toBe('block');
    expect(word.evaluate({ ...call('x'), queryString: 'who=robots' }).action).toBe('allow');
  });

  it('refuses to load what it cannot enforce, rather than letting it through', () => {
    const managed = { Name: 'aws-common', Priority: 0, OverrideAction: { None: {} }, Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesCommonRuleSet' } } };
    expect(() => new WebAclEvaluator('edge', acl([managed]))).toThrow(WafUnsupportedError);
    const geo = { Name: 'geo', Priority: 0, Action: { Block: {} }, Statement: { GeoMatchStatement: { CountryCodes: ['XX'] } } };
    expect(() => new WebAclEvaluator('edge', acl([geo]))).toThrow(/rule geo: statement GeoMatchStatement/);
    const asn = { Name: 'asn', Priority: 0, Action: { Block: {} }, Statement: { RateBasedStatement: { Limit: 10, AggregateKeyType: 'CUSTOM_KEYS', CustomKeys: [{ ASN: {} }] } } };
    expect(() => new WebAclEvaluator('edge', acl([asn]))).toThrow(/rule asn: aggregation key ASN/);
    expect(() => new WebAclEvaluator('edge', acl([perIp('odd', 0, 10, ['SignUp'], 90)]))).toThrow(/evaluation window 90/);
  });
});
