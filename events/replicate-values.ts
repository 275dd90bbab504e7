// The shapes of Replicate's identifiers, the one place every side reads them from: the shared
// client (functions/shared/replicate.ts), the configs that name a model or trainer, the stack's
// context checks and the twin's emulator.

/** A Replicate model, `owner/name`. */
export const REPLICATE_MODEL = /^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/;

/** A Replicate version id: 64 hexadecimal characters. */
export const REPLICATE_VERSION_ID = /^[a-f0-9]{64}$/;

/** A model's version, `owner/name:<version id>`: the model and the id as its two groups. */
export const REPLICATE_VERSION_REF = /^([A-Za-z0-9._-]+\/[A-Za-z0-9._-]+):([a-f0-9]{64})$/;
