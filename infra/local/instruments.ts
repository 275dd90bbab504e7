// The twin's instruments: meters that count what AWS would bill (DynamoDB capacity units, S3
// requests and bytes, SES emails, Lambda invocations and GB-seconds, Step Functions state
// transitions, EventBridge events) and faults that break calls on purpose (SES down, DynamoDB
// throttling, a function that throws or runs past its time-out, S3 PUTs failing part-way, events
// delivered again).
// Decision 018. A twin started without `instrument: true` has none of this on its paths.
import type { BusEvent } from './eventbridge';

interface DynamoMeter {
  calls: number;
  /** Read and write capacity units, as DynamoDB reports them with `ReturnConsumedCapacity: TOTAL`. */
  readUnits: number;
  writeUnits: number;
  /** Writes refused by their condition (DynamoDB bills each one write unit per item; counted in writeUnits). */
  conditionalFailures: number;
  throttled: number;
  byTable: Record<string, { readUnits: number; writeUnits: number }>;
}

interface S3Meter {
  /** PUT, COPY, POST and LIST requests (S3's first request tier). */
  tier1: number;
  /** GET, HEAD, OPTIONS and every other request except DELETE (S3's second tier). */
  tier2: number;
  deletes: number;
  /** Bytes of objects written by successful PUTs (copies not counted again). */
  bytesPut: number;
}

interface SesMeter {
  /** Messages accepted; each recipient of a message is billed as one email. */
  messages: number;
  recipients: number;
  /** Calls refused while SES was down. */
  refused: number;
}

interface FunctionMeter {
  invocations: number;
  errors: number;
  memoryMb: number;
  /** Wall time on the twin (not an AWS duration). */
  durationMs: number;
  /** Sum over invocations of memory (GB) x duration rounded up to the millisecond, as Lambda bills. */
  gbSeconds: number;
}

export interface Meters {
  dynamodb: DynamoMeter;
  s3: S3Meter;
  ses: SesMeter;
  lambda: Record<string, FunctionMeter>;
  /** Executions started and states entered; `byExecution`: the states each execution (by name) entered, in order. */
  stepFunctions: { executions: number; transitions: number; byExecution: Record<string, string[]> };
  /** Events published to a bus by the application (PutEvents entries and Step Functions' putEvents). */
  events: { published: number; fromAws: number };
  /** Function invocations under way now (not reset: a measure can wait for them to end). */
  invocationsInFlight: number;
}

export type Fault =
  /** SES answers nothing (the connection is refused) or 503 until cleared. */
  | { kind: 'ses-down'; mode?: 'refused' | '5xx' }
  /** A share (0..1) of DynamoDB calls answered with a throttling error, spread evenly. */
  | { kind: 'dynamodb-throttle'; share: number; error?: 'ProvisionedThroughputExceededException' | 'ThrottlingException' }
  /**
   * A function fails: `throw` before its handler runs, or `slow`: the handler runs but its
   * answer comes past the time-out (the caller sees `Task timed out`, as from a Lambda that ran
   * too long after doing its work). `times` limits the failures (default: every invocation).
   */
  | { kind: 'function'; name: string; mode: 'throw' | 'slow'; times?: number }
  /**
   * S3 PUTs of objects whose key contains `keyIncludes` fail with 500 InternalError once `after`
   * of them (default 0) have gone through, until cleared: a delivery that fails part-way.
   */
  | { kind: 's3-put-fail'; keyIncludes: string; after?: number };

export type FaultKind = Fault['kind'];

const emptyMeters = (): Meters => ({
  dynamodb: { calls: 0, readUnits: 0, writeUnits: 0, conditionalFailures: 0, throttled: 0, byTable: {} },
  s3: { tier1: 0, tier2: 0, deletes: 0, bytesPut: 0 },
  ses: { messages: 0, recipients: 0, refused: 0 },
  lambda: {},
  stepFunctions: { executions: 0, transitions: 0, byExecution: {} },
  events: { published: 0, fromAws: 0 },
  invocationsInFlight: 0,
});

/** A routed event, kept so that it can be delivered again (EventBridge and S3 deliver at least once). */
export interface RoutedEvent {
  busName: string;
  event: BusEvent;
}

export class Instruments {
  private meters = emptyMeters();
  private readonly faults = new Map<string, Fault & { used: number }>();
  private throttleCalls = 0;
  /** Events routed so far, newest last (bounded). */
  readonly routed: RoutedEvent[] = [];
  private readonly routedIds = new Set<string>();
  /** Called when the SES fault changes, so the proxy can close or reopen its port. */
  onSesChange?: (down: 'refused' | '5xx' | undefined) => Promise<void>;

  snapshot(): Meters {
    return structuredClone(this.meters);
  }

  reset(): void {
    const inFlight = this.meters.invocationsInFlight;
    this.meters = emptyMeters();
    this.meters.invocationsInFlight = inFlight;
  }

  async inject(fault: Fault): Promise<void> {
    validateFault(fault);
    const key = faultKey(fault);
    this.faults.set(key, { ...fault, used: 0 });
    if (fault.kind === 'dynamodb-throttle') this.throttleCalls = 0;
    if (fault.kind === 'ses-down') await this.onSesChange?.(fault.mode ?? 'refused');
  }

  /** Clears one fault (by kind, and function name for `function`), or every fault. */
  async clear(kind?: FaultKind, name?: string): Promise<void> {
    const hadSes = this.faults.has('ses-down');
    if (!kind) this.faults.clear();
    else this.faults.delete(kind === 'function' ? `function:${name}` : kind);
    if (hadSes && !this.faults.has('ses-down')) await this.onSesChange?.(undefined);
  }

  active(): Fault[] {
    return [...this.faults.values()].map(({ used: _used, ...f }) => f as Fault);
  }

  // --- used by the proxies, the function runtime, the state machine runner and the router ---

  sesDown(): 'refused' | '5xx' | undefined {
    const f = this.faults.get('ses-down');
    return f?.kind === 'ses-down' ? (f.mode ?? 'refused') : undefined;
  }

  /** Whether this DynamoDB call is to be throttled, and with which error. */
  throttle(): string | undefined {
    const f = this.faults.get('dynamodb-throttle');
    if (f?.kind !== 'dynamodb-throttle') return undefined;
    const n = this.throttleCalls++;
    // Evenly spread: call n is throttled when the running share crosses an integer.
    if (Math.floor((n + 1) * f.share) <= Math.floor(n * f.share)) return undefined;
    this.meters.dynamodb.throttled++;
    return f.error ?? 'ProvisionedThroughputExceededException';
  }

  /** Whether this S3 PUT of `key` is to fail (the `s3-put-fail` fault); the PUTs let through are counted. */
  s3PutFails(key: string): boolean {
    const f = this.faults.get('s3-put-fail');
    if (f?.kind !== 's3-put-fail' || !key.includes(f.keyIncludes)) return false;
    if (f.used < (f.after ?? 0)) {
      f.used++;
      return false;
    }
    return true;
  }

  /** The failure planned for this invocation of a function, if any. */
  functionFault(name: string): 'throw' | 'slow' | undefined {
    const f = this.faults.get(`function:${name}`);
    if (f?.kind !== 'function') return undefined;
    if (f.times !== undefined && f.used >= f.times) return undefined;
    f.used++;
    return f.mode;
  }

  dynamo(table: string | undefined, read: number, write: number): void {
    const m = this.meters.dynamodb;
    m.readUnits += read;
    m.writeUnits += write;
    if (table) {
      const t = (m.byTable[table] ??= { readUnits: 0, writeUnits: 0 });
      t.readUnits += read;
      t.writeUnits += write;
    }
  }

  dynamoCall(conditionalFailures = 0): void {
    this.meters.dynamodb.calls++;
    this.meters.dynamodb.conditionalFailures += conditionalFailures;
  }

  s3(kind: 'tier1' | 'tier2' | 'deletes', bytesPut = 0): void {
    this.meters.s3[kind]++;
    this.meters.s3.bytesPut += bytesPut;
  }

  ses(recipients: number | 'refused'): void {
    if (recipients === 'refused') this.meters.ses.refused++;
    else {
      this.meters.ses.messages++;
      this.meters.ses.recipients += recipients;
    }
  }

  invocationStarted(): void {
    this.meters.invocationsInFlight++;
  }

  invocationEnded(): void {
    this.meters.invocationsInFlight = Math.max(0, this.meters.invocationsInFlight - 1);
  }

  invocation(name: string, memoryMb: number, durationMs: number, failed: boolean): void {
    const m = (this.meters.lambda[name] ??= { invocations: 0, errors: 0, memoryMb, durationMs: 0, gbSeconds: 0 });
    m.invocations++;
    if (failed) m.errors++;
    m.durationMs += durationMs;
    m.gbSeconds += (memoryMb / 1024) * (Math.ceil(durationMs) / 1000);
  }

  stateEntered(execution: string, state: string): void {
    const sfn = this.meters.stepFunctions;
    sfn.transitions++;
    (sfn.byExecution[execution] ??= []).push(state);
  }

  executionStarted(): void {
    this.meters.stepFunctions.executions++;
  }

  eventRouted(busName: string, event: BusEvent): void {
    // A replay routes an event already seen: nothing new was published.
    if (this.routedIds.has(event.id)) return;
    this.routedIds.add(event.id);
    if (event.source.startsWith('aws.')) this.meters.events.fromAws++;
    else this.meters.events.published++;
    this.routed.push({ busName, event: structuredClone(event) });
    if (this.routed.length > 5000) this.routedIds.delete(this.routed.shift()!.event.id);
  }

  /** Routed events matching a filter, oldest first (for replays). */
  eventsMatching(filter: { source?: string; detailType?: string; detailIncludes?: string }): RoutedEvent[] {
    return this.routed.filter(
      (r) =>
        (!filter.source || r.event.source === filter.source) &&
        (!filter.detailType || r.event['detail-type'] === filter.detailType) &&
        (!filter.detailIncludes || JSON.stringify(r.event.detail).includes(filter.detailIncludes)),
    );
  }
}

function faultKey(f: Fault): string {
  return f.kind === 'function' ? `function:${f.name}` : f.kind;
}

/** Refuses a fault that names nothing real, with the reason. */
function validateFault(f: Fault): void {
  switch (f?.kind) {
    case 'ses-down':
      if (f.mode !== undefined && f.mode !== 'refused' && f.mode !== '5xx') throw new Error(`ses-down mode must be 'refused' or '5xx', not ${JSON.stringify(f.mode)}`);
      return;
    case 'dynamodb-throttle':
      if (!(typeof f.share === 'number' && f.share > 0 && f.share <= 1)) throw new Error(`dynamodb-throttle share must be a number in (0, 1], not ${JSON.stringify(f.share)}`);
      return;
    case 'function':
      if (typeof f.name !== 'string' || !f.name) throw new Error('a function fault needs the function name');
      if (f.mode !== 'throw' && f.mode !== 'slow') throw new Error(`function fault mode must be 'throw' or 'slow', not ${JSON.stringify(f.mode)}`);
      if (f.times !== undefined && !(Number.isInteger(f.times) && f.times > 0)) throw new Error(`function fault times must be a positive integer, not ${JSON.stringify(f.times)}`);
      return;
    case 's3-put-fail':
      if (typeof f.keyIncludes !== 'string' || !f.keyIncludes) throw new Error('an s3-put-fail fault needs keyIncludes, a part of the keys whose PUTs fail');
      if (f.after !== undefined && !(Number.isInteger(f.after) && f.after >= 0)) throw new Error(`s3-put-fail after must be a whole number, not ${JSON.stringify(f.after)}`);
      return;
    default:
      throw new Error(`unknown fault kind ${JSON.stringify((f as { kind?: unknown })?.kind)} (ses-down, dynamodb-throttle, function, s3-put-fail)`);
  }
}
