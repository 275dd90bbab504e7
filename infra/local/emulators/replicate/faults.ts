// Faults for tests. API faults count API calls; prediction faults count predictions created, of
// any model or, with `model`, of that model only (tests sharing a twin each use their own talent),
// and with `promptIncludes` only those whose input prompt contains that text (a test's marker:
// the industry classifier's prompt quotes the generation's). Training faults count trainings
// created, with `destination` only those into that model: never a prediction's, so the
// generation's tests and the training's do not take each other's faults.

type Scope = { times?: number; model?: string; promptIncludes?: string };
type TrainingScope = { times?: number; destination?: string };

export type ReplicateFault =
  | { kind: 'http-5xx' | 'http-429'; times?: number; retryAfterSeconds?: number }
  | ({ kind: 'prediction-failed' } & Scope)
  | ({ kind: 'lose-webhook'; events?: Array<'start' | 'completed'> } & Scope)
  | ({ kind: 'never-finish' } & Scope)
  /** The create is made (the prediction runs, its webhooks go) but its answer is lost: the connection closes unanswered. */
  | ({ kind: 'lose-create-answer' } & Scope)
  /** The training downloads its images, then fails with an error in `error` and `logs`. */
  | ({ kind: 'training-failed' } & TrainingScope)
  /** The training runs to its end, but these webhooks (default: all) are never sent: a poller must find it. */
  | ({ kind: 'training-lose-webhook'; events?: Array<'start' | 'logs' | 'completed'> } & TrainingScope)
  /** The training stays `processing` until canceled (a time-out). */
  | ({ kind: 'training-never-finish' } & TrainingScope);

type Kind = ReplicateFault['kind'];
const KINDS: readonly Kind[] = [
  'http-5xx',
  'http-429',
  'prediction-failed',
  'lose-webhook',
  'never-finish',
  'lose-create-answer',
  'training-failed',
  'training-lose-webhook',
  'training-never-finish',
];

export class Faults {
  private faults: Array<ReplicateFault & { left: number }> = [];

  inject(fault: ReplicateFault): void {
    if (!KINDS.includes(fault?.kind)) throw new Error(`Unknown Replicate fault ${JSON.stringify(fault?.kind)} (one of: ${KINDS.join(', ')})`);
    const times = fault.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new Error(`Fault times must be a whole number of at least 1, got ${fault.times}`);
    this.faults.push({ ...fault, left: times });
  }

  clear(): void {
    this.faults = [];
  }

  /** Takes one of the first fault of these kinds that applies to what is being made, if any. */
  take<K extends Kind>(kinds: K[], about: { model?: string; prompt?: string; destination?: string } = {}): Extract<ReplicateFault, { kind: K }> | undefined {
    const fault = this.faults.find(
      (f) =>
        (kinds as Kind[]).includes(f.kind) &&
        (!('model' in f) || !f.model || f.model === about.model) &&
        (!('promptIncludes' in f) || !f.promptIncludes || (about.prompt ?? '').includes(f.promptIncludes)) &&
        (!('destination' in f) || !f.destination || f.destination === about.destination),
    );
    if (!fault) return undefined;
    fault.left -= 1;
    if (fault.left <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault as unknown as Extract<ReplicateFault, { kind: K }>;
  }
}
