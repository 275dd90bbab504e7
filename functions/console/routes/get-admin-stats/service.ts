import { emptyStatusCounts, type AdminStats } from '../../../../events/admin';
import { APPLICATION_STATUSES, FOUNDING_SPOTS, type ApplicationStatus } from '../../../../events/founding-values';
import type { FoundingStore } from '../../../founding';
import type { GenerationStore } from '../../../generation';
import type { MessageStore } from '../../../contact';
import { reportStats, type ReportStore } from '../../../reports';
import { latestClosedMonth, type RoyaltyStore } from '../../../royalties';
import type { WaitlistStore } from '../../../waitlist';

export interface StatsDeps {
  waitlist: WaitlistStore;
  waitlistCapacity: number;
  applications: FoundingStore;
  messages: MessageStore;
  generations: Pick<GenerationStore, 'countByStatus'>;
  royalties: Pick<RoyaltyStore, 'listStatementsOfMonth'>;
  reports: Pick<ReportStore, 'listCases'>;
  now: () => Date;
}

/** The dashboard's figures. Each is read from where it is kept; none is a second copy. */
export async function adminStats(deps: StatsDeps): Promise<AdminStats> {
  const [waitlistCount, spotsTaken, applications, failedWaitlist, failedContact, failedGenerations, royalties, reportCases] = await Promise.all([
    deps.waitlist.count(),
    deps.applications.foundingSpotsTaken(),
    applicationCounts(deps.applications),
    deps.waitlist.countFailedWelcomes(),
    deps.messages.countFailedEmails(),
    deps.generations.countByStatus('failed'),
    royaltiesOwed(deps.royalties, deps.now()),
    deps.reports.listCases(),
  ]);
  return {
    waitlist: { count: waitlistCount, capacity: deps.waitlistCapacity },
    founding: { total: FOUNDING_SPOTS, taken: spotsTaken },
    applications: applications.summary,
    failedEmails: {
      total: applications.failedEmails + failedWaitlist + failedContact,
      applications: applications.failedEmails,
      waitlist: failedWaitlist,
      contact: failedContact,
    },
    generations: { failed: failedGenerations },
    royalties,
    reports: reportStats(reportCases, deps.now()),
  };
}

/**
 * What the latest closed month's statements still owe talent: the whole cents of every
 * statement not marked paid (a statement under a cent owes nothing), and how many they are.
 */
async function royaltiesOwed(royalties: Pick<RoyaltyStore, 'listStatementsOfMonth'>, now: Date): Promise<AdminStats['royalties']> {
  const latest = await latestClosedMonth(royalties, now);
  if (!latest) return { owedCents: 0, unpaidStatements: 0 };
  const unpaid = latest.statements.filter((s) => !s.paid && s.totals.royaltyCents > 0);
  return { closedMonth: latest.month, owedCents: unpaid.reduce((sum, s) => sum + s.totals.royaltyCents, 0), unpaidStatements: unpaid.length };
}

/** Applications by status, the oldest one waiting for review, and failed application emails. */
async function applicationCounts(store: FoundingStore) {
  const byStatus = emptyStatusCounts();
  let total = 0;
  let failedEmails = 0;
  let oldestWaitingSince: string | undefined;
  for (const item of await store.listApplicationStatuses()) {
    total += 1;
    const status = item.status as ApplicationStatus;
    if ((APPLICATION_STATUSES as readonly string[]).includes(status)) byStatus[status] += 1;
    if (item.confirmationEmail === 'failed') failedEmails += 1;
    if (status === 'pending_review' && typeof item.submittedAt === 'string') {
      if (!oldestWaitingSince || item.submittedAt < oldestWaitingSince) oldestWaitingSince = item.submittedAt;
    }
  }
  return {
    summary: { total, byStatus, waitingForReview: byStatus.pending_review, ...(oldestWaitingSince ? { oldestWaitingSince } : {}) },
    failedEmails,
  };
}
