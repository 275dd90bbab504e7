import * as z from 'zod';
import { GENERATION_ID_PATTERN } from '../../events/generation-values';

/** Every step's input: the generation the execution runs for. */
export const GenerationInput = z.object({ generationId: z.string().regex(GENERATION_ID_PATTERN, { error: 'generationId must be a generation id' }) });

/** The tables every step reads, from the function's environment. */
export const TablesConfig = z.object({ GENERATIONS_TABLE: z.string().min(1) });
