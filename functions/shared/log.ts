/**
 * Structured JSON logs. Request bodies, emails and photos are personal data: callers pass
 * only identifiers and outcomes, never payloads.
 */
type Fields = Record<string, string | number | boolean | undefined | null>;

function write(level: 'info' | 'warn' | 'error', message: string, fields?: Fields): void {
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}

export const log = {
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, err?: unknown, fields?: Fields) =>
    write('error', message, {
      ...fields,
      error: err instanceof Error ? err.name : typeof err,
      detail: err instanceof Error ? err.message : undefined,
    }),
};
