import * as fs from 'node:fs';
import * as path from 'node:path';
import { SEED_METADATA } from '../../infra/lib/platform/seed';
import { nonLogActions, synthStack } from '../support/stack';

const { template, logicalId, statementsOf, routeKeys } = synthStack();
const tableId = logicalId('AWS::DynamoDB::Table', 'CatalogTalentTable');
const seed = JSON.parse(fs.readFileSync(path.join(__dirname, '../../infra/seed/talent.json'), 'utf8'));

describe('talent catalog', () => {
  it('serves GET /talent and GET /talent/{id} as public routes', () => {
    const routes = routeKeys().filter((r) => /^GET \/talent/.test(r.RouteKey));
    expect(routes.map((r) => r.RouteKey).sort()).toEqual(['GET /talent', 'GET /talent/{id}']);
    for (const r of routes) expect(r.AuthorizationType ?? 'NONE').toBe('NONE');
  });

  it('lets the list function scan only the talent table, and the profile function get one item', () => {
    const list = statementsOf('CatalogListTalent');
    expect(nonLogActions(list)).toEqual(['dynamodb:Scan']);
    const scan = list.find((s) => s.Action === 'dynamodb:Scan' || (Array.isArray(s.Action) && s.Action.includes('dynamodb:Scan')))!;
    expect(scan.Resource).toEqual({ 'Fn::GetAtt': [tableId, 'Arn'] });
    const get = statementsOf('CatalogGetTalent');
    expect(nonLogActions(get)).toEqual(['dynamodb:GetItem']);
    expect(JSON.stringify([...list, ...get])).not.toMatch(/"Resource":"\*"/);
  });

  it('names the seed file on the table for the twin', () => {
    const table = template.findResources('AWS::DynamoDB::Table')[tableId];
    expect(table.Metadata[SEED_METADATA]).toBe('infra/seed/talent.json');
    expect(table.Properties.KeySchema).toEqual([{ AttributeName: 'id', KeyType: 'HASH' }]);
  });

  it('puts every seed item in the table with an idempotent PutItem on create and update', () => {
    const seeds = Object.values(template.findResources('Custom::AWS'));
    expect(seeds).toHaveLength(seed.length);
    const calls = seeds.map((r) => {
      const render = (v: string | { 'Fn::Join': [string, unknown[]] }) => (typeof v === 'string' ? v : v['Fn::Join'][1].map((p) => (typeof p === 'string' ? p : '<table>')).join(''));
      return { create: JSON.parse(render(r.Properties.Create)), update: JSON.parse(render(r.Properties.Update)) };
    });
    for (const { create, update } of calls) {
      expect(create).toEqual(update);
      expect(create).toMatchObject({ service: 'DynamoDB', action: 'PutItem', parameters: { TableName: '<table>' } });
    }
    const maya = calls.find((c) => c.create.parameters.Item.id.S === 'maya-chen')!.create.parameters.Item;
    expect(maya.generationCount).toEqual({ N: '12847' });
    expect(maya.tags.L.map((t: { S: string }) => t.S)).toEqual(seed[0].tags);
  });

  it('lets the seed provider put items in the talent table and nothing else', () => {
    const provider = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith('AWS679f53fac'))!;
    const roleId = provider[1].Properties.Role['Fn::GetAtt'][0];
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(nonLogActions(statements)).toEqual(['dynamodb:PutItem']);
    expect(statements.find((s) => s.Action === 'dynamodb:PutItem').Resource).toEqual({ 'Fn::GetAtt': [tableId, 'Arn'] });
    const role = template.findResources('AWS::IAM::Role')[roleId];
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });
});
