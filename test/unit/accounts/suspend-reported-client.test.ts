// The accounts wing's consumer of a report's "suspend the client" decision (decision 058), with fakes.
import type { AdminUserDetail } from '../../../events/accounts';
import { suspensionReason } from '../../../events/report-values';
import type { ReportDecidedV1 } from '../../../events/reports';
import type { SignInSwitch } from '../../../functions/accounts/account-state';
import type { Account, Actor } from '../../../functions/accounts/store';
import { suspendReportedClient } from '../../../functions/accounts/triggers/suspend-reported-client/service';

const CLIENT_ID = '1b3c5d7e-0000-4000-8000-000000000001';
const reviewer = { sub: 'rev-sub', email: 'reviewer@humanly.local' };
const decided = (overrides: Partial<ReportDecidedV1> = {}): ReportDecidedV1 => ({
  version: 1,
  reference: 'RPT-AAAAAA',
  action: 'suspend-client',
  decidedAt: '2026-11-29T10:00:00.000Z',
  afterAppeal: false,
  licenseId: 'lic_x',
  clientAccountId: CLIENT_ID,
  decidedBy: reviewer,
  ...overrides,
});

function fakes() {
  const at = '2026-11-24T12:00:00.000Z';
  const accounts = new Map<string, Account>([[CLIENT_ID, { id: CLIENT_ID, email: 'client@people.example', full_name: 'Ada Client', role: 'client', plan: 'free', disabled: false, createdAt: at, updatedAt: at }]]);
  const audit: string[] = [];
  const calls: string[] = [];
  const store = {
    get: async (id: string) => accounts.get(id),
    detail: async (id: string): Promise<AdminUserDetail | undefined> => {
      const a = accounts.get(id);
      return a && { id: a.id, email: a.email, full_name: a.full_name, role: a.role, plan: a.plan, disabled: a.disabled, createdAt: a.createdAt, ledger: [], audit: [] };
    },
    setDisabled: async (id: string, disabled: boolean, by: Actor, reason?: string) => {
      audit.push(`disabled=${disabled} by ${by.email} reason=${reason}`);
      accounts.set(id, { ...accounts.get(id)!, disabled });
      return accounts.get(id)!;
    },
  };
  const signIn: SignInSwitch = {
    disable: async (id) => void calls.push(`disable ${id}`),
    enable: async (id) => void calls.push(`enable ${id}`),
    signOutEverywhere: async (id) => void calls.push(`sign out ${id}`),
  };
  return { deps: { accounts: store, signIn }, audit, calls, accounts };
}

describe("a report's suspension of the client", () => {
  it('disables the client account once, with the report in the reason and the reviewer in the audit, however often it is delivered', async () => {
    const { deps, audit, calls, accounts } = fakes();
    expect(await suspendReportedClient(deps, decided())).toBe('suspended');
    expect(await suspendReportedClient(deps, decided())).toBe('suspended');
    expect(accounts.get(CLIENT_ID)!.disabled).toBe(true);
    expect(calls.filter((c) => c.startsWith('disable'))).not.toHaveLength(0);
    expect(audit).toEqual([`disabled=true by reviewer@humanly.local reason=${suspensionReason('RPT-AAAAAA')}`]);
    expect(suspensionReason('RPT-AAAAAA')).toContain('RPT-AAAAAA');
  });

  it('leaves other decisions, and a decision naming no client, alone', async () => {
    const { deps, audit, calls } = fakes();
    expect(await suspendReportedClient(deps, decided({ action: 'revoke-license' }))).toBe('skipped');
    expect(await suspendReportedClient(deps, decided({ clientAccountId: undefined }))).toBe('skipped');
    expect([...audit, ...calls]).toEqual([]);
  });

  it('skips an account that no longer exists instead of failing the delivery', async () => {
    const { deps, audit } = fakes();
    expect(await suspendReportedClient(deps, decided({ clientAccountId: 'gone' }))).toBe('skipped');
    expect(audit).toEqual([]);
  });
});
