import * as z from 'zod';
import { AdminReportListQuery } from '../../../../events/reports';
import { queryOf } from '../../../shared/admin-list';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, validationErrorFrom } from '../../../shared/http';
import { reportStore } from '../../store';
import { listReports } from './service';

const config = loadConfig(z.object({ REPORTS_TABLE: z.string().min(1) }));

/** `GET /admin/reports`: the reports queue. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const query = AdminReportListQuery.safeParse(queryOf(event));
  if (!query.success) throw validationErrorFrom(query.error);
  return json(200, await listReports(reportStore(documentClient(), config.REPORTS_TABLE), query.data));
});
