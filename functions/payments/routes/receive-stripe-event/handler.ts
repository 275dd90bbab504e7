import { httpHandler, json } from '../../../shared/http';

// Being built (issue 23): answers 501 until the route's service lands.
export const handler = httpHandler(async () => json(501, { error: 'Not built yet.' }));
