import { httpHandler, json } from '../../../shared/http';

/** Declared so the routes exist; answered in full shortly. */
export const handler = httpHandler(async () => json(501, { error: 'Not built yet.' }));
