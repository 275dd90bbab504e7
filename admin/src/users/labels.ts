import { PLAN_IDS, planById, type PlanId } from '../../../events/plans';

export const ROLE_LABELS: Record<string, string> = { client: 'Client', talent: 'Talent' };

export const planName = (id: string | undefined) => (id && (PLAN_IDS as readonly string[]).includes(id) ? planById(id as PlanId).name : '—');

export const PLAN_CHOICES = PLAN_IDS.map((id) => ({ id, name: planById(id).name }));

export const LEDGER_KIND_LABELS: Record<string, string> = { grant: 'Grant', reserve: 'Reserved', commit: 'Spent', release: 'Returned', expire: 'Expired', 'take-back': 'Taken back' };

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'plan-changed': 'Plan changed',
  'credits-granted': 'Credits granted',
  disabled: 'Account disabled',
  enabled: 'Account enabled',
  'plan-request-declined': 'Plan request declined',
};

/** "+25", "-3", "0": a ledger line's change to the balance. */
export const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
