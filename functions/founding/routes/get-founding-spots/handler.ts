import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { foundingStore } from '../../store';
import { foundingSpots } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1) }));

/** `GET /founding-spots` (anyone): the founding spots taken and left. */
export const handler = httpHandler(async () => json(200, await foundingSpots(foundingStore(documentClient(), config.APPLICATIONS_TABLE))));
