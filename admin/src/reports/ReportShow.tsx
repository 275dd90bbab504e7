import { Alert, AlertTitle, Box, Card, Chip, Link, Stack, Typography } from '@mui/material';
import { ListButton, Loading, ShowBase, Title, useShowContext } from 'react-admin';
import { licensePath } from '../../../events/generation-values';
import { NOT_OURS_MESSAGE } from '../../../events/report-values';
import { Fields, Section } from '../common/DetailSection';
import { formatDateTime } from '../common/format';
import { DecisionActions } from './DecisionActions';
import { ACTION_PAST, CATEGORY_LABELS, historyText, MATCH_METHOD_LABELS, ROLE_LABELS } from './labels';
import { IntimateFlag, ReportStatusChip, SlaTimer, useNow } from './SlaTimer';
import type { AdminReport } from '../../../events/reports';

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** One report: what was reported and by whom, what it matched, the files, the decision and the history. */
export function ReportShow({ siteUrl }: { siteUrl?: string }) {
  return (
    <ShowBase queryOptions={{ refetchOnWindowFocus: false }}>
      <ReportPage siteUrl={siteUrl} />
    </ShowBase>
  );
}

function ReportPage({ siteUrl }: { siteUrl?: string }) {
  const { record, isPending, error, refetch } = useShowContext<AdminReport>();
  const now = useNow();
  if (isPending) return <Loading />;
  if (error || !record) return <Alert severity="error">This report could not be loaded.</Alert>;
  // Until getOne answers, react-admin may show the list's summary of the case: no detail fields.
  const detailLoaded = Array.isArray(record.history);
  const decisions = record.decisions ?? [];
  const lastDecision = decisions.at(-1);

  return (
    <Stack spacing={2} sx={{ mt: 2, mb: 4 }}>
      <Title title={`Report ${record.reference}`} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 260 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
            <Typography component="h1" variant="h5" sx={{ fontWeight: 600, fontFamily: 'monospace' }}>
              {record.reference}
            </Typography>
            <ReportStatusChip status={record.status} />
            {record.category === 'intimate' ? <IntimateFlag /> : null}
            <SlaTimer dueAt={record.dueAt} status={record.status} overdue={record.overdue} now={now} />
          </Box>
          <Typography variant="body2" color="text.secondary">
            {CATEGORY_LABELS[record.category] ?? record.category} · received {formatDateTime(record.receivedAt)} · due {formatDateTime(record.dueAt)}
          </Typography>
        </Box>
        <ListButton label="All reports" />
      </Box>

      {record.hidden ? (
        <Alert severity="warning" data-testid="report-hidden">
          The matched image is hidden while this report waits: its license page shows no thumbnail and its downloads are withheld.
        </Alert>
      ) : null}

      {record.status === 'appealed' && record.appeal ? (
        <Alert severity="info" data-testid="report-appeal">
          <AlertTitle>Appealed on {formatDateTime(record.appeal.at)}</AlertTitle>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', mb: 1 }} data-testid="appeal-statement">
            {record.appeal.statement}
          </Typography>
          <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="appeal-reviewer-rule">
            An appeal is decided by a different reviewer{lastDecision ? ` than ${lastDecision.by}, who made the first decision` : ''}.
          </Typography>
        </Alert>
      ) : null}

      {detailLoaded ? (
        <>
          <Section title="Decision" id="decision-title" action={<DecisionActions report={record} siteUrl={siteUrl} onDecided={() => void refetch()} />}>
            {decisions.length ? (
              <Box component="ol" sx={{ m: 0, pl: 2.5, display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="report-decisions">
                {decisions.map((d, i) => (
                  <li key={`${d.at}-${i}`}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {ACTION_PAST[d.action] ?? d.action} by {d.by} on {formatDateTime(d.at)}
                    </Typography>
                    {d.sampleUrl ? (
                      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid="decision-sample">
                        Sample removed: {d.sampleUrl}
                      </Typography>
                    ) : null}
                    <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                      {d.reasons}
                    </Typography>
                  </li>
                ))}
              </Box>
            ) : (
              <Typography variant="body2" color="text.secondary">
                Not decided yet. Each action asks for a written statement of reasons, sent to the people it concerns.
              </Typography>
            )}
          </Section>

          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, gap: 2, alignItems: 'start' }}>
            <Section title="Report" id="report-title">
              <Fields
                rows={[
                  ['Category', CATEGORY_LABELS[record.category] ?? record.category],
                  ['Reporter', `${record.reporter.name} <${record.reporter.email}>`],
                  ['Role', ROLE_LABELS[record.reporter.role] ?? record.reporter.role],
                  ['Explanation', record.explanation],
                  [
                    'Where',
                    record.urls.length ? (
                      // Plain text, never live links: a reported address may be harmful.
                      <Box component="ul" sx={{ m: 0, pl: 2 }} data-testid="report-urls">
                        {record.urls.map((u) => (
                          <Box component="li" key={u} sx={{ fontFamily: 'monospace', fontSize: 13, userSelect: 'all' }}>
                            {u}
                          </Box>
                        ))}
                      </Box>
                    ) : (
                      'No address given: see the files'
                    ),
                  ],
                  ...(record.category === 'intimate'
                    ? ([
                        ['Consent', record.consentDenied ? 'The reporter states the person shown did not consent' : ''],
                        ['Person shown', record.depictedPerson ?? (record.reporter.role === 'talent' ? 'The reporter' : '')],
                      ] as Array<[string, string]>)
                    : []),
                  ['Good faith', 'Stated by the reporter'],
                  ['Signature', record.reporter.signature],
                ]}
              />
            </Section>
            <MatchSection report={record} siteUrl={siteUrl} />
          </Box>

          <Section title={`Files (${record.files.length})`} id="files-title">
            {record.files.length ? (
              <>
                <Box component="ul" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: 2, p: 0, m: 0, listStyle: 'none' }}>
                  {record.files.map((f, i) => (
                    <Card component="li" variant="outlined" key={f.fileId} data-testid="report-file">
                      <Box
                        component="img"
                        src={f.url}
                        alt={`Reported file ${i + 1}`}
                        referrerPolicy="no-referrer"
                        sx={{ display: 'block', width: '100%', aspectRatio: '1 / 1', objectFit: 'contain', bgcolor: 'action.hover' }}
                      />
                      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', p: 1, overflowWrap: 'anywhere' }}>
                        {f.match.verdict === 'ours' ? `Matches ${f.match.licenseId}` : NOT_OURS_MESSAGE} · {Math.round(f.size / 1024)} KB
                      </Typography>
                    </Card>
                  ))}
                </Box>
                <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
                  Shown through short-lived links: reload the page if an image no longer loads.
                </Typography>
              </>
            ) : (
              <Typography variant="body2" color="text.secondary">
                No file was sent with this report.
              </Typography>
            )}
          </Section>

          <Section title="History" id="history-title">
            <Box component="ol" aria-labelledby="history-title" sx={{ m: 0, pl: 2.5, display: 'flex', flexDirection: 'column', gap: 1 }} data-testid="report-history">
              {record.history.map((h, i) => (
                <li key={`${h.at}-${i}`}>
                  <Typography variant="body2">
                    <strong>{historyText(h.what)}</strong>
                    {h.by ? ` by ${h.by}` : ''} · {formatDateTime(h.at)}
                  </Typography>
                  {h.detail ? (
                    <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                      {h.detail}
                    </Typography>
                  ) : null}
                </li>
              ))}
            </Box>
          </Section>
        </>
      ) : (
        <Loading />
      )}
    </Stack>
  );
}

/** What the reported files matched: the license, its client and talent, and how it was found; or not ours. */
function MatchSection({ report, siteUrl }: { report: AdminReport; siteUrl?: string }) {
  const { license, match } = report;
  if (!license)
    return (
      <Section title="Match" id="match-title">
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }} data-testid="report-match-detail">
          <Chip size="small" variant="outlined" label={NOT_OURS_MESSAGE} />
          <Typography variant="body2" color="text.secondary">
            {report.files.length ? 'No reported file matched an image we delivered.' : 'No file to compare: only addresses were given.'}
          </Typography>
        </Box>
      </Section>
    );
  return (
    <Section title="Match" id="match-title">
      <Box data-testid="report-match-detail">
        <Fields
          rows={[
            ['Verdict', <Chip size="small" color="error" label="Made on Humanly" />],
            [
              'License',
              <>
                {siteUrl ? (
                  <Link href={`${siteUrl}${licensePath(license.licenseId)}`} target="_blank" rel="noopener" data-testid="report-license">
                    {license.licenseId}
                  </Link>
                ) : (
                  <span data-testid="report-license">{license.licenseId}</span>
                )}
                {license.revokedAt ? ` · revoked ${formatDateTime(license.revokedAt)}` : ''}
              </>,
            ],
            ['Licensed', formatDateTime(license.issuedAt)],
            ['Client', <span data-testid="report-client">{license.clientName}</span>],
            ['Client account', license.clientAccountId],
            ['Talent', `${license.talentName} (${license.talentId})`],
            ['How it matched', match.verdict === 'ours' ? capitalised(MATCH_METHOD_LABELS[match.how]) : ''],
          ]}
        />
      </Box>
    </Section>
  );
}
