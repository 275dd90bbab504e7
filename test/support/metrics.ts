// The failure metrics a piece of code writes (functions/shared/log.ts `log.metric`, CloudWatch's
// embedded metric format, decision 041), read back from the console as CloudWatch Logs reads them.

/** One metric line: its name (from the directive), value, dimension values and other members. */
export interface WrittenMetric {
  name: string;
  value: unknown;
  namespace: string;
  dimensions: string[][];
  line: Record<string, unknown>;
}

interface Directive {
  Namespace: string;
  Dimensions: string[][];
  Metrics: Array<{ Name: string; Unit: string }>;
}

/** Runs `fn` with the console captured (nothing printed) and answers the metrics it wrote, in order. */
export async function metricsWritten(fn: () => Promise<unknown>): Promise<WrittenMetric[]> {
  const lines: string[] = [];
  const spies = (['log', 'info', 'warn', 'error'] as const).map((m) =>
    jest.spyOn(console, m).mockImplementation((...args: unknown[]) => {
      lines.push(String(args[0]));
    }),
  );
  try {
    await fn();
  } finally {
    for (const s of spies) s.mockRestore();
  }
  const written: WrittenMetric[] = [];
  for (const text of lines) {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      continue;
    }
    const aws = line._aws as { CloudWatchMetrics?: Directive[] } | undefined;
    for (const directive of aws?.CloudWatchMetrics ?? []) {
      for (const m of directive.Metrics) written.push({ name: m.Name, value: line[m.Name], namespace: directive.Namespace, dimensions: directive.Dimensions, line });
    }
  }
  return written;
}
