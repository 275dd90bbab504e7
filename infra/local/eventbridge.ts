import { randomUUID } from 'node:crypto';
import { matchesPattern } from './event-pattern';
import { LOCAL_ACCOUNT, LOCAL_REGION, resourcesOfType, type CfnTemplate, type Resolver } from './template';

export interface PutEventsEntry {
  Source?: string;
  DetailType?: string;
  Detail?: string;
  EventBusName?: string;
  Resources?: string[];
  Time?: string | Date;
}

export interface BusEvent {
  version: '0';
  id: string;
  'detail-type': string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: unknown;
}

/** A target as the template declares it (AWS::Events::Rule Targets). */
interface RuleTarget {
  Id: string;
  Arn: string;
  Input?: string;
  InputPath?: string;
  InputTransformer?: unknown;
  RetryPolicy?: { MaximumRetryAttempts?: number; MaximumEventAgeInSeconds?: number };
  DeadLetterConfig?: { Arn?: string };
}

interface Target {
  id: string;
  kind: 'lambda' | 'stateMachine';
  arn: string;
  input?: string;
  inputPath?: string;
  retryAttempts: number;
  maxAgeMs: number;
  deadLetterArn?: string;
}

export interface LocalRule {
  logicalId: string;
  busName: string;
  /** Absent for a scheduled rule: it matches no event, it is fired on demand. */
  pattern?: Record<string, unknown>;
  /** A scheduled rule's `rate(...)` or `cron(...)` expression. */
  schedule?: string;
  arn: string;
  targets: Target[];
}

export interface Delivery {
  rule: string;
  target: string;
  eventId: string;
  detailType: string;
  outcome: 'delivered' | 'dead-lettered' | 'dropped';
  attempts: number;
  error?: string;
}

export interface Deliverers {
  lambda: (arn: string, event: unknown) => Promise<unknown>;
  stateMachine: (arn: string, input: unknown) => Promise<unknown>;
}

const MAX_DETAIL_BYTES = 256 * 1024;

/**
 * The template's event buses and rules: events put on a bus are matched against its rules'
 * patterns and delivered to their targets asynchronously, with the target's retry policy
 * (pauses scaled for tests) and its dead-letter queue recorded when retries run out.
 */
export class EventRouter {
  readonly rules: LocalRule[] = [];
  readonly unsupported: string[] = [];
  readonly deliveries: Delivery[] = [];
  private closed = false;
  private readonly buses = new Set<string>(['default']);
  private inFlight = new Set<Promise<void>>();

  constructor(
    template: CfnTemplate,
    resolver: Resolver,
    private readonly deliver: Deliverers,
    private readonly opts: { retryBaseMs?: number; log?: (line: string) => void; onRoute?: (busName: string, event: BusEvent) => void } = {},
  ) {
    for (const [, bus] of resourcesOfType(template, 'AWS::Events::EventBus')) this.buses.add(bus.Properties!.Name);
    for (const [logicalId, rule] of resourcesOfType(template, 'AWS::Events::Rule')) {
      const props = resolver.resolve(rule.Properties ?? {});
      try {
        const schedule: string | undefined = props.ScheduleExpression;
        if (schedule && !/^(rate|cron)\(.+\)$/.test(schedule)) throw new Error(`schedule ${schedule} is neither rate(...) nor cron(...)`);
        if (!schedule && !props.EventPattern) throw new Error('a rule without EventPattern or ScheduleExpression');
        if (props.EventPattern) matchesPattern(props.EventPattern, {}); // throws on operators the twin does not know
        const targets = (props.Targets ?? []).map((t: RuleTarget): Target => {
          const kind = /:lambda:/.test(t.Arn) ? 'lambda' : /:states:/.test(t.Arn) ? 'stateMachine' : undefined;
          if (!kind) throw new Error(`target ${t.Arn} is of a kind the twin does not serve`);
          if (t.InputTransformer) throw new Error('InputTransformer is not served yet');
          return {
            id: t.Id,
            kind,
            arn: t.Arn,
            input: t.Input,
            inputPath: t.InputPath,
            retryAttempts: t.RetryPolicy?.MaximumRetryAttempts ?? 185,
            maxAgeMs: (t.RetryPolicy?.MaximumEventAgeInSeconds ?? 86400) * 1000,
            deadLetterArn: t.DeadLetterConfig?.Arn,
          };
        });
        const name = props.Name ?? logicalId;
        const arn = `arn:aws:events:${LOCAL_REGION}:${LOCAL_ACCOUNT}:rule/${name}`;
        this.rules.push({ logicalId, busName: busNameOf(props.EventBusName), pattern: props.EventPattern, schedule, arn, targets });
      } catch (err) {
        this.unsupported.push(`${logicalId}: ${(err as Error).message}`);
      }
    }
  }

  putEvents(entries: PutEventsEntry[]): { FailedEntryCount: number; Entries: Array<Record<string, string>> } {
    let failed = 0;
    const results = entries.map((entry): Record<string, string> => {
      const problem = this.check(entry);
      if (problem) {
        failed++;
        return { ErrorCode: problem[0], ErrorMessage: problem[1] };
      }
      const event: BusEvent = {
        version: '0',
        id: randomUUID(),
        'detail-type': entry.DetailType!,
        source: entry.Source!,
        account: LOCAL_ACCOUNT,
        time: (entry.Time ? new Date(entry.Time) : new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        region: LOCAL_REGION,
        resources: entry.Resources ?? [],
        detail: JSON.parse(entry.Detail!),
      };
      this.route(busNameOf(entry.EventBusName), event);
      return { EventId: event.id };
    });
    return { FailedEntryCount: failed, Entries: results };
  }

  private check(entry: PutEventsEntry): [string, string] | undefined {
    if (!entry.Source || !entry.DetailType || entry.Detail === undefined) {
      return ['InvalidArgument', 'Source, DetailType and Detail are required'];
    }
    if (!this.buses.has(busNameOf(entry.EventBusName))) {
      return ['ResourceNotFoundException', `Event bus ${entry.EventBusName} does not exist.`];
    }
    if (Buffer.byteLength(entry.Detail) > MAX_DETAIL_BYTES) return ['InvalidArgument', 'Detail is larger than 256 KB'];
    try {
      const detail = JSON.parse(entry.Detail);
      if (detail === null || typeof detail !== 'object' || Array.isArray(detail)) throw new Error();
    } catch {
      return ['MalformedDetail', 'Detail is malformed.'];
    }
    return undefined;
  }

  /** Routes an event (ours or an AWS service's, such as S3's) on a bus; none once closed. */
  route(busName: string, event: BusEvent): void {
    if (this.closed) return;
    this.opts.onRoute?.(busName, event);
    for (const rule of this.rules) {
      if (!rule.pattern || rule.busName !== busName || !matchesPattern(rule.pattern, event as unknown as Record<string, unknown>)) continue;
      for (const target of rule.targets) this.track(this.deliverWithRetries(rule, target, event));
    }
  }

  /**
   * Fires the scheduled rules whose logical id starts with `prefix`, as their schedule would: a
   * Scheduled Event to each target. The twin has no timers for schedules (a monthly rule would
   * never fire in a test, and an hourly one would fire at random in the middle of one); tests and
   * `npm start` users fire them when they want. Resolves, with the rules fired, once every
   * target has been delivered to (or its retries have run out). `time` is the event's time (as if
   * the schedule fired then: a monthly close at `2026-12-01T01:00:00Z` closes November); now when absent.
   */
  async runScheduled(prefix: string, time?: string): Promise<string[]> {
    if (time !== undefined && Number.isNaN(Date.parse(time))) throw new Error(`time must be an ISO time, got ${time}`);
    const rules = this.rules.filter((r) => r.schedule && r.logicalId.startsWith(prefix));
    if (rules.length === 0) {
      const scheduled = this.rules.filter((r) => r.schedule).map((r) => r.logicalId);
      throw new Error(`No scheduled rule whose logical id starts with ${prefix} (scheduled rules: ${scheduled.join(', ') || 'none'})`);
    }
    const deliveries: Array<Promise<void>> = [];
    for (const rule of rules) {
      const event: BusEvent = {
        version: '0',
        id: randomUUID(),
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        account: LOCAL_ACCOUNT,
        time: new Date(time ?? Date.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        region: LOCAL_REGION,
        resources: [rule.arn],
        detail: {},
      };
      this.opts.onRoute?.(rule.busName, event);
      for (const target of rule.targets) {
        const delivery = this.deliverWithRetries(rule, target, event);
        this.track(delivery);
        deliveries.push(delivery);
      }
    }
    await Promise.all(deliveries);
    return rules.map((r) => r.logicalId);
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private async deliverWithRetries(rule: LocalRule, target: Target, event: BusEvent): Promise<void> {
    const payload = target.input !== undefined ? JSON.parse(target.input) : target.inputPath ? selectPath(event, target.inputPath) : event;
    const started = Date.now();
    let attempts = 0;
    let lastError = '';
    while (!this.closed && attempts <= target.retryAttempts && Date.now() - started <= target.maxAgeMs) {
      attempts++;
      try {
        if (target.kind === 'lambda') await this.deliver.lambda(target.arn, payload);
        else await this.deliver.stateMachine(target.arn, payload);
        this.deliveries.push({ rule: rule.logicalId, target: target.id, eventId: event.id, detailType: event['detail-type'], outcome: 'delivered', attempts });
        return;
      } catch (err) {
        lastError = (err as Error).message;
        this.opts.log?.(`delivery of ${event['detail-type']} to ${rule.logicalId}/${target.id} failed (attempt ${attempts}): ${lastError}`);
        // EventBridge backs off exponentially; the base pause is shortened on the twin.
        await new Promise((r) => setTimeout(r, Math.min(2 ** (attempts - 1), 64) * (this.opts.retryBaseMs ?? 1000)));
      }
    }
    this.deliveries.push({
      rule: rule.logicalId,
      target: target.id,
      eventId: event.id,
      detailType: event['detail-type'],
      outcome: target.deadLetterArn ? 'dead-lettered' : 'dropped',
      attempts,
      error: lastError,
    });
  }

  /** Resolves once every delivery under way (including ones they start) has finished. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Stops routing as the twin stops: new events are dropped, and a delivery under way is not
   * tried again (its retries would call functions that have stopped, and keep the process alive).
   */
  close(): void {
    this.closed = true;
  }
}

function busNameOf(nameOrArn: string | undefined): string {
  if (!nameOrArn) return 'default';
  return nameOrArn.startsWith('arn:') ? nameOrArn.split('/').pop()! : nameOrArn;
}

function selectPath(event: BusEvent, jsonPath: string): unknown {
  return jsonPath
    .replace(/^\$\.?/, '')
    .split('.')
    .filter(Boolean)
    .reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), event);
}
