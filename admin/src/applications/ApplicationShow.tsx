import { Alert, Box, Chip, Divider, LinearProgress, Link, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { ListButton, Loading, ShowBase, Title, useShowContext } from 'react-admin';
import type { ApplicationDetail } from '../../../events/founding';
import { Fields, Section } from '../common/DetailSection';
import { formatDateTime, INDUSTRY_LABELS, PROGRAM_LABELS, ROYALTY_SHORT } from '../common/format';
import { StatusChip } from '../common/StatusChip';
import { DecisionButtons } from './DecisionButtons';
import { FailureNotice } from './FailureNotice';
import { ConsentRecordSection, IdentitySummary, SelfieSection, VerificationSection } from './IdentityPanels';
import { PhotoGallery } from './PhotoGallery';

const HISTORY_LABELS: Record<string, string> = {
  submitted: 'Application submitted',
  validated: 'Photos checked',
  'email sent': 'Email sent',
  'email failed': 'Email failed to send',
  'waiting for review': 'Waiting for review',
  'reminder sent': 'Reviewers reminded',
  'decided: accept': 'Accepted',
  'decided: reject': 'Rejected',
  'spot allocated': 'Founding spot allocated',
  'talent created': 'Talent profile created',
  invited: 'Invited to sign in',
  'photos deleted': 'Photos deleted',
  'photos marked for deletion': 'Photos marked for deletion',
  'step failed': 'A step failed',
  retried: 'Retried',
};

/** The workflow's history events in words; unknown ones as they are, capitalised. */
const historyLabel = (event: string) => HISTORY_LABELS[event] ?? event.charAt(0).toUpperCase() + event.slice(1);

/** One application: every field, consent, photo checks, the ID verification, the gallery, the decision and its history. */
export function ApplicationShow() {
  return (
    <ShowBase queryOptions={{ refetchOnWindowFocus: false }}>
      <ApplicationPage />
    </ShowBase>
  );
}

/** True once an email has been sent after the decision (the workflow's last step of both branches). */
function decisionEmailSent(history: ApplicationDetail['history']): boolean {
  const decided = history.findIndex((h) => h.event.startsWith('decided'));
  return decided >= 0 && history.slice(decided + 1).some((h) => h.event === 'email sent');
}



function ApplicationPage() {
  const { record, isPending, error, refetch } = useShowContext<ApplicationDetail>();
  const polls = useRef(0);
  // After a decision the workflow takes a moment to allocate the spot, create the talent and
  // send the email: follow it until the decision's email has gone out (21 polls at most).
  // After a retry, follow the resumed workflow the same way until it settles.
  const following = (!!record?.decision && !decisionEmailSent(record.history ?? []) && record.status !== 'failed') || record?.status === 'validating';
  useEffect(() => {
    if (!following || polls.current > 20) return;
    const t = setTimeout(() => {
      polls.current += 1;
      void refetch();
    }, 1500);
    return () => clearTimeout(t);
  }, [following, record, refetch]);

  if (isPending) return <Loading />;
  if (error || !record) return <Alert severity="error">This application could not be loaded.</Alert>;
  const name = [record.firstName, record.lastName].filter(Boolean).join(' ');
  // Until getOne answers, react-admin shows the list's summary of the record: no detail fields.
  const detailLoaded = Array.isArray(record.photos);
  const photos = record.photos ?? [];
  const history = record.history ?? [];
  const rejected = (record.photoResults ?? []).filter((p) => !p.accepted);
  // Photos the applicant replaced stay in the gallery, greyed, but no longer count in the set.
  const replaced = new Set((record.photoResults ?? []).filter((p) => p.replacedAt && p.index !== undefined).map((p) => p.index));
  const inSet = photos.filter((p) => !replaced.has(p.index)).length;

  return (
    <Stack spacing={2} sx={{ mt: 2, mb: 4 }}>
      <Title title={name} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 280 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
            <Typography component="h1" variant="h5" sx={{ fontWeight: 600 }}>
              {name}
            </Typography>
            <StatusChip status={record.status} />
            <Chip size="small" variant="outlined" label={PROGRAM_LABELS[record.program] ?? record.program} />
          </Box>
          <Typography variant="body2" color="text.secondary">
            Submitted {formatDateTime(record.submittedAt)} · {record.id}
          </Typography>
        </Box>
        <DecisionButtons application={record} onDecided={() => void refetch()} />
        <ListButton label="All applications" />
      </Box>

      <FailureNotice
        application={record}
        onRetried={() => {
          polls.current = 0;
          void refetch();
        }}
      />

      {record.decision ? (
        <Alert severity={record.decision.decision === 'accept' ? 'success' : 'info'}>
          {record.decision.decision === 'accept' ? 'Accepted' : 'Rejected'} by {record.decision.decidedBy} on {formatDateTime(record.decision.decidedAt)}
          {record.decision.note ? `: “${record.decision.note}” (internal note)` : '.'}
          {record.decision.messageToApplicant ? ` Message to the applicant: “${record.decision.messageToApplicant}”.` : ''}
          {record.founding !== undefined ? ` ${record.founding ? 'Founding talent' : 'Standard talent'}${record.royaltyPlan ? `, ${ROYALTY_SHORT[record.royaltyPlan]}` : ''}.` : ''}
        </Alert>
      ) : null}

      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' }, gap: 2, alignItems: 'start' }}>
        <Section title="Applicant" id="applicant-title">
          <Fields
            rows={[
              ['Email', <Link href={`mailto:${record.email}`}>{record.email}</Link>],
              ['Phone', record.phone],
              ['Location', record.location],
              ['Age', String(record.age)],
              ['Portfolio', record.portfolioUrl ? <Link href={record.portfolioUrl} target="_blank" rel="noreferrer noopener">{record.portfolioUrl}</Link> : ''],
              ['Experience', record.experience],
              ['Interests', record.interests],
              ['Excludes', record.excludedIndustries?.length ? record.excludedIndustries.map((i) => INDUSTRY_LABELS[i] ?? i).join(', ') : 'No exclusions'],
            ]}
          />
        </Section>
        <Stack spacing={2}>
          <Section title="Consent and terms" id="terms-title">
            <Fields
              rows={[
                ['Terms accepted', record.terms?.accepted ? 'Yes' : 'No'],
                ['Accepted at', formatDateTime(record.terms?.acceptedAt)],
                ['From address', record.terms?.ip],
                ['Browser', record.terms?.userAgent],
              ]}
            />
          </Section>
          <Section title="Photo checks" id="checks-title">
            <Fields
              rows={[
                ['Files counted', String(record.imageCount)],
                ['Accepted', record.validPhotoCount !== undefined ? String(record.validPhotoCount) : 'Not validated yet'],
                ['Not accepted', record.rejectedPhotoCount !== undefined ? String(record.rejectedPhotoCount) : '—'],
                ['Confirmation email', record.confirmationEmail === 'failed' ? 'Failed to send' : record.confirmationEmail === 'sent' ? 'Sent' : '—'],
              ]}
            />
            {rejected.length ? (
              <Table size="small" sx={{ mt: 1.5 }} aria-label="Photos not accepted">
                <TableHead>
                  <TableRow>
                    <TableCell>File</TableCell>
                    <TableCell>Why not</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rejected.map((p) => (
                    <TableRow key={p.source}>
                      <TableCell sx={{ overflowWrap: 'anywhere' }}>{p.source.split('/').pop()}</TableCell>
                      <TableCell>{p.reason ?? 'Not accepted'}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            ) : null}
          </Section>
          {record.identity ? <ConsentRecordSection identity={record.identity} /> : null}
        </Stack>
      </Box>

      {detailLoaded ? <VerificationSection application={record} /> : null}
      {detailLoaded ? <SelfieSection application={record} onExpired={() => void refetch()} /> : null}

      <Section title={detailLoaded ? `Photos (${inSet})` : 'Photos'} id="photos-title">
        {detailLoaded && record.identity ? <IdentitySummary identity={record.identity} replaced={replaced.size} /> : null}
        {detailLoaded ? (
          <PhotoGallery photos={photos} results={record.photoResults} name={name} onExpired={() => void refetch()} />
        ) : (
          <LinearProgress aria-label="Loading photos" />
        )}
      </Section>

      <Section title="History" id="history-title">
        {history.length ? (
          <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none' }}>
            {history.map((h, i) => (
              <Box component="li" key={`${h.at}-${i}`}>
                {i > 0 ? <Divider sx={{ my: 1 }} /> : null}
                <Box sx={{ display: 'flex', gap: 2, alignItems: 'baseline', flexWrap: 'wrap' }}>
                  <Typography variant="body2" color="text.secondary" sx={{ minWidth: 170 }}>
                    {formatDateTime(h.at)}
                  </Typography>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {historyLabel(h.event)}
                  </Typography>
                  {h.by ? (
                    <Typography variant="body2" color="text.secondary">
                      by {h.by}
                    </Typography>
                  ) : h.note ? (
                    // The workflow's own details (which email, how many photos), not a reviewer's words.
                    <Typography variant="body2" color="text.secondary">
                      {h.note}
                    </Typography>
                  ) : null}
                  {h.by && h.note ? (
                    <Typography variant="body2" sx={{ flexBasis: '100%', pl: { sm: '186px' }, whiteSpace: 'pre-wrap' }}>
                      “{h.note}”
                    </Typography>
                  ) : null}
                </Box>
              </Box>
            ))}
          </Box>
        ) : (
          <Typography color="text.secondary">Nothing recorded yet.</Typography>
        )}
      </Section>
    </Stack>
  );
}
