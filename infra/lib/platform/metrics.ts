import { Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/**
 * The namespace of our own failure metrics (events/metrics.ts, decision 041): `Humanly/<stack
 * name>`, the name of the top stack (a nested stack's own name is a token), so two stages in one
 * account never mix their metrics or set off each other's alarms. AppFunction sets it on every
 * function; the alarms watch it.
 */
export function metricsNamespace(scope: Construct): string {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return `Humanly/${stack.stackName}`;
}
