import { missingFromTwin, templateInventory } from '../../infra/local/parity';
import { useTwin } from '../support/twin';

const twin = useTwin();

describe('twin parity', () => {
  it('serves every route, table, bucket, rule and state machine of the template', () => {
    expect(twin().unsupported()).toEqual([]);
    expect(missingFromTwin(twin().template, twin().inventory())).toEqual([]);
    expect(twin().inventory()).toEqual(templateInventory(twin().template));
  });
});
