import * as z from 'zod';
import { EmailPreviewRequest } from '../../../../events/founding';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { foundingStore } from '../../store';
import { previewDecisionEmail } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1), SITE_URL: z.url() }));

/** `POST /admin/applications/{id}/email-preview` (admins): `{ to, subject, text, html }` of the decision's email. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const request = parseJsonBody(event, EmailPreviewRequest);
  const preview = await previewDecisionEmail(
    { store: foundingStore(documentClient(), config.APPLICATIONS_TABLE), siteUrl: config.SITE_URL },
    event.pathParameters?.id ?? '',
    request,
  );
  return json(200, preview);
});
