import * as z from 'zod';

/** Every API error answers with this body; `error` is a sentence a person can act on. */
export const ErrorResponse = z.object({
  error: z.string(),
  /** Field-level problems, when the request failed validation. */
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;
