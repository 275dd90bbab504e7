// The API's route table (docs/architecture.md, "An API request"): every route is a method and a
// path of its own, so API Gateway answers 404 for a path the table does not name (no catch-all
// route a handler would have to sort out), and every route has a function of its own whose
// handler serves that route alone (no handler chooses by path or method).
import { flattenedStack } from '../support/stack';

const { template } = flattenedStack();
type Resource = { Properties: Record<string, any>; Metadata?: Record<string, unknown> }; // eslint-disable-line @typescript-eslint/no-explicit-any
const integrations = template.findResources('AWS::ApiGatewayV2::Integration') as Record<string, Resource>;
const functions = template.findResources('AWS::Lambda::Function') as Record<string, Resource>;
const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route') as Record<string, Resource>).map((r) => {
  const integration = integrations[r.Properties.Target['Fn::Join'][1][1].Ref]!;
  const fn = integration.Properties.IntegrationUri['Fn::GetAtt'][0] as string;
  return { key: String(r.Properties.RouteKey), entry: functions[fn]?.Metadata?.['app:entry'] as string };
});

/** Paths from before the site moved, kept for callers already out there: a route's second path, never a second function. */
const LEGACY_PREFIX = '/functions/v1/';

describe('the API route table', () => {
  it('names a method and a path for each route: no $default, ANY or greedy path to fall through to', () => {
    expect(routes.length).toBeGreaterThan(100);
    const loose = routes.filter(({ key }) => !/^(GET|POST|PUT|PATCH|DELETE) \/[^\s]*$/.test(key) || key.includes('+}'));
    expect(loose).toEqual([]);
  });

  it('gives every route its own function, with its handler in a route folder', () => {
    const byEntry = new Map<string, string[]>();
    for (const { key, entry } of routes.filter(({ key }) => !key.includes(LEGACY_PREFIX))) byEntry.set(entry, [...(byEntry.get(entry) ?? []), key]);
    expect([...byEntry].filter(([, keys]) => keys.length > 1)).toEqual([]);
    expect(routes.filter(({ entry }) => !/^functions\/[a-z]+\/routes\/[a-z0-9-]+\/handler\.ts$/.test(entry ?? ''))).toEqual([]);
  });

  it('serves a legacy path beside a current one with the very function of the current route', () => {
    const pairs = routes
      .filter(({ key }) => key.includes(LEGACY_PREFIX))
      .map(({ key, entry }) => ({ key, entry, current: routes.find((r) => r.key === key.replace(LEGACY_PREFIX, '/')) }))
      .filter(({ current }) => current !== undefined);
    expect(pairs.length).toBeGreaterThan(0);
    for (const { key, entry, current } of pairs) expect({ key, entry }).toEqual({ key, entry: current!.entry });
  });
});
