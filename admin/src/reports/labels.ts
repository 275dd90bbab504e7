import {
  MATCH_METHOD_LABELS,
  REPORT_ACTION_LABELS,
  REPORT_CATEGORY_LABELS,
  REPORT_STATUSES,
  REPORTER_ROLE_LABELS,
  type ReportAction,
  type ReportStatus,
} from '../../../events/report-values';

export { MATCH_METHOD_LABELS, REPORT_CATEGORY_LABELS as CATEGORY_LABELS, REPORTER_ROLE_LABELS as ROLE_LABELS };

/** Short words for the status chips (the site's longer labels are in report-values). */
export const STATUS_LABELS: Record<ReportStatus, string> = { open: 'Open', decided: 'Decided', appealed: 'Appealed', closed: 'Closed' };
export const STATUS_COLORS: Record<ReportStatus, 'warning' | 'default' | 'info'> = { open: 'warning', decided: 'default', appealed: 'info', closed: 'default' };
export const STATUS_CHOICES = REPORT_STATUSES.map((id) => ({ id, name: STATUS_LABELS[id] }));
/** Whether a case waits for a reviewer (its timer runs). */
export const isWaiting = (status: ReportStatus) => status === 'open' || status === 'appealed';

export interface ActionText {
  label: string;
  title: string;
  /** What the action does and who is told. */
  body: string;
  confirm: string;
  done: string;
}

export const ACTIONS: Record<ReportAction, ActionText> = {
  dismiss: {
    label: 'Dismiss',
    title: REPORT_ACTION_LABELS.dismiss,
    body: 'Nothing changes for the license, the client or the talent. The reporter is told, with your statement of reasons.',
    confirm: 'Dismiss report',
    done: 'Report dismissed. The reporter will be told.',
  },
  'revoke-license': {
    label: 'Revoke the license',
    title: REPORT_ACTION_LABELS['revoke-license'],
    body: 'The license page and the license check then say it is revoked, with the public reason for this kind of report (never your statement); the client’s download is removed. The client is told with your statement of reasons and how to appeal; the reporter and the talent are told the outcome.',
    confirm: 'Revoke license',
    done: 'License revoked. The client, the talent and the reporter will be told.',
  },
  'suspend-client': {
    label: 'Suspend the client',
    title: REPORT_ACTION_LABELS['suspend-client'],
    body: 'The client’s account is disabled: they cannot sign in or generate. They are told, with your statement of reasons; the reporter is told the outcome.',
    confirm: 'Suspend client',
    done: 'Client suspended. They will be told, with your reasons.',
  },
  'remove-sample': {
    label: 'Remove the talent’s sample',
    title: REPORT_ACTION_LABELS['remove-sample'],
    body: 'The talent’s sample image is taken off their public profile. The talent and the reporter are told.',
    confirm: 'Remove sample',
    done: 'Sample removed. The talent and the reporter will be told.',
  },
};

export const ACTION_PAST: Record<ReportAction, string> = {
  dismiss: 'Dismissed',
  'revoke-license': 'License revoked',
  'suspend-client': 'Client suspended',
  'remove-sample': 'Sample removed',
};

/** A history entry's words, with a decision's action in words ("Decided: revoke-license" → "Decided: license revoked"). */
export function historyText(what: string): string {
  const decided = /^(decided(?: after appeal)?): ([a-z-]+)$/i.exec(what);
  const action = decided?.[2] as ReportAction | undefined;
  return decided && action && action in ACTION_PAST ? `${decided[1]}: ${ACTION_PAST[action].toLowerCase()}` : what;
}
