import { flattenNestedStacks, type CfnTemplate } from '../../../infra/local/template';

// A parent passing its table's name to a nested stack, which outputs its function's ARN back;
// both hold a singleton of the same logical id (as CDK's custom-resource providers do).
const nested: CfnTemplate = {
  Parameters: { TableNameParam: { Type: 'String' } },
  Resources: {
    Fn: { Type: 'AWS::Lambda::Function', Properties: { Environment: { Variables: { TABLE: { Ref: 'TableNameParam' } } }, Role: { 'Fn::GetAtt': ['Provider', 'Arn'] } } },
    Provider: { Type: 'AWS::IAM::Role', Properties: { Description: { 'Fn::Sub': 'role of ${Fn} in ${AWS::Region}' } }, DependsOn: ['Fn'] },
  },
  Outputs: { FnArn: { Value: { 'Fn::GetAtt': ['Fn', 'Arn'] } } },
};
const parent: CfnTemplate = {
  Resources: {
    Table: { Type: 'AWS::DynamoDB::Table', Properties: {} },
    Provider: { Type: 'AWS::IAM::Role', Properties: {} },
    Child: { Type: 'AWS::CloudFormation::Stack', Properties: { Parameters: { TableNameParam: { Ref: 'Table' } } } },
    Rule: { Type: 'AWS::Events::Rule', Properties: { Targets: [{ Arn: { 'Fn::GetAtt': ['Child', 'Outputs.FnArn'] } }] } },
  },
};

describe('nested stacks flattened for the twin', () => {
  const flat = flattenNestedStacks(parent, new Map([['Child', { template: nested, nested: new Map() }]]));

  it('holds the nested resources in place of the nested stack, with parameters bound to the parent\'s values', () => {
    expect(Object.keys(flat.Resources).sort()).toEqual(['ChildProvider', 'Fn', 'Provider', 'Rule', 'Table']);
    expect(flat.Resources.Fn.Properties?.Environment.Variables.TABLE).toEqual({ Ref: 'Table' });
  });

  it('resolves the parent\'s reference to a nested output to the output\'s value', () => {
    expect(flat.Resources.Rule.Properties?.Targets[0].Arn).toEqual({ 'Fn::GetAtt': ['Fn', 'Arn'] });
  });

  it('prefixes a nested logical id the parent also uses, in every reference to it', () => {
    expect(flat.Resources.Provider.Properties).toEqual({});
    expect(flat.Resources.Fn.Properties?.Role).toEqual({ 'Fn::GetAtt': ['ChildProvider', 'Arn'] });
    expect(flat.Resources.ChildProvider.DependsOn).toEqual(['Fn']);
    expect(flat.Resources.ChildProvider.Properties?.Description).toEqual({ 'Fn::Sub': 'role of ${Fn} in ${AWS::Region}' });
  });

  it('refuses a reference to an output the nested stack does not have', () => {
    const wrong: CfnTemplate = { Resources: { ...parent.Resources, Rule: { Type: 'AWS::Events::Rule', Properties: { Arn: { 'Fn::GetAtt': ['Child', 'Outputs.Nope'] } } } } };
    expect(() => flattenNestedStacks(wrong, new Map([['Child', { template: nested, nested: new Map() }]]))).toThrow(/no output Nope/);
  });
});
