import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Archive, EventBus } from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';
import { EVENT_SOURCE } from '../../../events/product';

/** Our own bus for domain events, with an archive so every event is kept and replayable. */
export class MarketplaceBus extends Construct {
  readonly bus: EventBus;

  constructor(scope: Construct, id: string, props: { stage: string; retainData: boolean }) {
    super(scope, id);
    this.bus = new EventBus(this, 'Bus', { eventBusName: `marketplace-${props.stage}` });
    const archive = new Archive(this, 'Archive', {
      sourceEventBus: this.bus,
      eventPattern: { source: [EVENT_SOURCE] },
      retention: Duration.days(365),
      description: 'Every domain event, kept for a year (audit and replay)',
    });
    archive.applyRemovalPolicy(props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY);
  }
}
