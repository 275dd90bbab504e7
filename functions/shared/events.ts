import { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { EVENT_SOURCE } from '../../events/product';
import { eventBridge } from './clients';

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
