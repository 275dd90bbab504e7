import { resourcesOfType, type CfnTemplate } from './template';

/** The resources whose service the twin must provide, by kind. */
export interface Inventory {
  routes: string[];
  tables: string[];
  buckets: string[];
  rules: string[];
  stateMachines: string[];
  secrets: string[];
  /** Web ACLs associated with a resource (the user pool's), enforced by the twin (decision 040). */
  webAclAssociations: string[];
}

const KINDS: Record<keyof Inventory, string> = {
  routes: 'AWS::ApiGatewayV2::Route',
  tables: 'AWS::DynamoDB::Table',
  buckets: 'AWS::S3::Bucket',
  rules: 'AWS::Events::Rule',
  stateMachines: 'AWS::StepFunctions::StateMachine',
  secrets: 'AWS::SecretsManager::Secret',
  webAclAssociations: 'AWS::WAFv2::WebACLAssociation',
};

/** What the template asks for, as logical ids. */
export function templateInventory(template: CfnTemplate): Inventory {
  const ids = (type: string) => resourcesOfType(template, type).map(([id]) => id).sort();
  return Object.fromEntries(Object.entries(KINDS).map(([k, t]) => [k, ids(t)])) as unknown as Inventory;
}

/** Everything the template has that the twin does not serve, as "kind: logicalId" lines. */
export function missingFromTwin(template: CfnTemplate, served: Inventory): string[] {
  const wanted = templateInventory(template);
  return (Object.keys(KINDS) as Array<keyof Inventory>).flatMap((kind) =>
    wanted[kind].filter((id) => !served[kind].includes(id)).map((id) => `${kind}: ${id}`),
  );
}
