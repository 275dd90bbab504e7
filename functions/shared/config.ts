import * as z from 'zod';

/**
 * Parses a function's environment once, at module load, and fails fast with every problem
 * named. Logic receives the parsed object; nothing else reads `process.env`.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new Error(`Invalid function configuration: ${problems.join('; ')}`);
  }
  return result.data;
}

/** A positive integer given as an environment string. */
export const positiveIntFromEnv = z.coerce.number().int().positive();
