import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import BrokenImageIcon from '@mui/icons-material/BrokenImage';
import GroupsIcon from '@mui/icons-material/Groups';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import MarkEmailUnreadIcon from '@mui/icons-material/MarkEmailUnread';
import PaymentsIcon from '@mui/icons-material/Payments';
import ReportIcon from '@mui/icons-material/ReportGmailerrorred';
import StarIcon from '@mui/icons-material/Star';
import { Box, Chip, Typography } from '@mui/material';
import { Loaded } from '../common/Loaded';
import { Title, useGetIdentity } from 'react-admin';
import { APPLICATION_STATUSES } from '../../../events/founding-values';
import { RevenueCards } from '../billing/RevenueCards';
import { BRAND_NAME } from '../brand';
import { ageOf, formatDateTime, STATUS_COLORS, STATUS_LABELS } from '../common/format';
import { generationsWith } from '../generations/labels';
import { dollarsOfCents } from '../../../events/royalty-format';
import { monthLabel, statementsOfMonth } from '../statements/labels';
import { percent, StatCard } from './StatCard';
import { useStats } from './useStats';
import type { AdminStats } from '../dataProvider';

/** Link to the applications list filtered by status (react-admin's hash routes). */
const applicationsWith = (status: string) =>
  `#/applications?filter=${encodeURIComponent(JSON.stringify({ status }))}&order=ASC&sort=submittedAt`;

/**
 * Misuse reports waiting for a decision: how many, how many are past their due time (in red while
 * any is), and how many are intimate-image reports (due in 48 hours); the figure opens the queue.
 */
function ReportsCard({ reports }: { reports: AdminStats['reports'] }) {
  return (
    <StatCard
      id="reports"
      icon={<ReportIcon color={reports.overdue ? 'error' : 'primary'} />}
      title="Reports"
      value={`${reports.waiting} open`}
      to="#/reports"
      caption={reports.waiting ? 'Waiting for a decision: the queue shows overdue and intimate-image cases first.' : 'No report is waiting for a decision.'}
    >
      <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, p: 0, m: 0, listStyle: 'none' }}>
        <li>
          <Chip data-testid="reports-overdue" color={reports.overdue ? 'error' : 'default'} variant={reports.overdue ? 'filled' : 'outlined'} label={`Overdue: ${reports.overdue}`} />
        </li>
        <li>
          <Chip data-testid="reports-intimate" color={reports.intimateWaiting ? 'warning' : 'default'} variant={reports.intimateWaiting ? 'filled' : 'outlined'} label={`Intimate images: ${reports.intimateWaiting}`} />
        </li>
      </Box>
    </StatCard>
  );
}

/** The console's home page: founding spots, the review queue, the waitlist, failed emails and generations, reports, royalties and revenue. */
export function Dashboard() {
  const { identity } = useGetIdentity();
  const statsQuery = useStats();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, mt: 2, mb: 4 }}>
      <Title title="Dashboard" />
      <Box>
        <Typography component="h1" variant="h5" sx={{ fontWeight: 600 }}>
          Review console
        </Typography>
        <Typography color="text.secondary">
          {identity?.fullName ? `Welcome, ${identity.fullName}. ` : 'Welcome. '}
          Follow {BRAND_NAME}'s pre-launch and decide on founding talent applications.
        </Typography>
      </Box>
      <Loaded query={statsQuery} loading="Loading the figures…" failed="Could not load the dashboard figures.">
        {(stats) => (
          <>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
              <StatCard
                id="founding"
                icon={<StarIcon color="primary" />}
                title="Founding spots"
                value={`${stats.founding.taken} of ${stats.founding.total} taken`}
                progress={percent(stats.founding.taken, stats.founding.total)}
                caption={`${stats.founding.total - stats.founding.taken} left for accepted founding talent`}
              />
              <StatCard
                id="reviews"
                icon={<HourglassTopIcon color="primary" />}
                title="Reviews waiting"
                value={String(stats.applications.waitingForReview)}
                to={applicationsWith('pending_review')}
                caption={
                  stats.applications.oldestWaitingSince
                    ? `Oldest waiting ${ageOf(stats.applications.oldestWaitingSince)} (since ${formatDateTime(stats.applications.oldestWaitingSince)})`
                    : 'Nothing is waiting for a decision.'
                }
              />
              <StatCard
                id="waitlist"
                icon={<GroupsIcon color="primary" />}
                title="Early-access waitlist"
                value={`${stats.waitlist.count} of ${stats.waitlist.capacity}`}
                progress={percent(stats.waitlist.count, stats.waitlist.capacity)}
                caption={`Waitlist: ${stats.waitlist.count} of ${stats.waitlist.capacity} signed up`}
                to="#/waitlist"
              />
            </Box>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
              <StatCard
                id="applications"
                icon={<AssignmentIndIcon color="primary" />}
                title="Applications by status"
                value={`${stats.applications.total} in all`}
                to="#/applications"
              >
                <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, p: 0, m: 0, listStyle: 'none' }}>
                  {APPLICATION_STATUSES.map((status) => (
                    <li key={status}>
                      <Chip
                        component="a"
                        href={applicationsWith(status)}
                        clickable
                        color={STATUS_COLORS[status]}
                        variant={stats.applications.byStatus[status] ? 'filled' : 'outlined'}
                        label={`${STATUS_LABELS[status]}: ${stats.applications.byStatus[status] ?? 0}`}
                      />
                    </li>
                  ))}
                </Box>
              </StatCard>
              <StatCard
                id="failed-emails"
                icon={<MarkEmailUnreadIcon color={stats.failedEmails.total ? 'error' : 'primary'} />}
                title="Emails that failed to send"
                value={String(stats.failedEmails.total)}
                caption={`Application confirmations: ${stats.failedEmails.applications} · Waitlist welcomes: ${stats.failedEmails.waitlist} · Contact replies: ${stats.failedEmails.contact}`}
              />
              <StatCard
                id="failed-generations"
                icon={<BrokenImageIcon color={stats.generations.failed ? 'error' : 'primary'} />}
                title="Failed generations"
                value={String(stats.generations.failed)}
                to={generationsWith('failed')}
                caption="Generations that ended without images; their credits were returned."
              />
              <ReportsCard reports={stats.reports} />
              <StatCard
                id="royalties-owed"
                icon={<PaymentsIcon color={stats.royalties.owedCents ? 'warning' : 'primary'} />}
                title="Royalties owed"
                value={`$${dollarsOfCents(stats.royalties.owedCents)}`}
                to={stats.royalties.closedMonth ? statementsOfMonth(stats.royalties.closedMonth) : '#/statements'}
                caption={
                  stats.royalties.closedMonth
                    ? `${stats.royalties.unpaidStatements} unpaid ${stats.royalties.unpaidStatements === 1 ? 'statement' : 'statements'} for ${monthLabel(stats.royalties.closedMonth)}`
                    : 'No month has been closed yet.'
                }
              />
            </Box>
          </>
        )}
      </Loaded>
      <RevenueCards />
    </Box>
  );
}
