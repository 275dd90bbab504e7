import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { EVENT_SOURCE } from '../../events/product';

/** One client per container, created on first use (here, so only the functions that publish load its SDK: decision 064). */
let client: EventBridgeClient | undefined;
const eventBridge = () => (client ??= new EventBridgeClient({}));

/** Puts one domain event on our bus; throws when EventBridge refuses it. */
export async function publish(busName: string, detailType: string, detail: object): Promise<void> {
  const out = await eventBridge().send(
    new PutEventsCommand({
      Entries: [{ EventBusName: busName, Source: EVENT_SOURCE, DetailType: detailType, Detail: JSON.stringify(detail) }],
    }),
  );
  if (out.FailedEntryCount) {
    const entry = out.Entries?.find((e) => e.ErrorCode);
    throw new Error(`EventBridge refused ${detailType}: ${entry?.ErrorCode ?? 'unknown'} ${entry?.ErrorMessage ?? ''}`.trim());
  }
}
