import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, Card, CircularProgress, Link, Stack, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { ListButton, Loading, ShowBase, Title, useDataProvider, useNotify, useShowContext } from 'react-admin';
import { FINAL_STATUSES, licensePath } from '../../../events/generation-values';
import type { AdminGeneration, GenerationImage } from '../../../events/generations';
import { Fields, Section } from '../common/DetailSection';
import { formatDateTime } from '../common/format';
import type { ConsoleDataProvider } from '../dataProvider';
import { errorText } from '../common/errorText';
import { GenerationStatusChip } from './GenerationStatusChip';
import { stepLabel } from './labels';

/** Polls of a running generation (every 2 s), so the page follows it to its end. */
const MAX_POLLS = 90;

/** One generation: what was asked, how the workflow went step by step, and the delivered images with their licenses. */
export function GenerationShow({ siteUrl }: { siteUrl?: string }) {
  return (
    <ShowBase queryOptions={{ refetchOnWindowFocus: false }}>
      <GenerationPage siteUrl={siteUrl} />
    </ShowBase>
  );
}

function GenerationPage({ siteUrl }: { siteUrl?: string }) {
  const { record, isPending, error, refetch } = useShowContext<AdminGeneration>();
  const polls = useRef(0);
  const running = !!record && !FINAL_STATUSES.includes(record.status);
  useEffect(() => {
    if (!running || polls.current >= MAX_POLLS) return;
    const t = setTimeout(() => {
      polls.current += 1;
      void refetch();
    }, 2000);
    return () => clearTimeout(t);
  }, [running, record, refetch]);

  if (isPending) return <Loading />;
  if (error || !record) return <Alert severity="error">This generation could not be loaded.</Alert>;
  // Until getOne answers, react-admin may show the list's copy of the record.
  const steps = record.steps ?? [];
  const images = record.images ?? [];

  return (
    <Stack spacing={2} sx={{ mt: 2, mb: 4 }}>
      <Title title={`Generation for ${record.clientEmail}`} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 280 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
            <Typography component="h1" variant="h5" sx={{ fontWeight: 600 }}>
              {record.talentName} · {record.style}
            </Typography>
            <GenerationStatusChip status={record.status} />
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {record.clientEmail} · started {formatDateTime(record.createdAt)} · {record.id}
          </Typography>
        </Box>
        <ListButton label="All generations" />
      </Box>

      {record.failure ? (
        <Alert severity={record.status === 'canceled' ? 'warning' : 'error'} data-testid="generation-failure">
          {record.failure.message}
        </Alert>
      ) : null}

      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, gap: 2, alignItems: 'start' }}>
        <Section title="Request" id="request-title">
          <Fields
            rows={[
              ['Prompt', record.prompt],
              ['Style', record.style],
              ['Images asked for', String(record.count)],
              ['Talent', `${record.talentName} (${record.talentId})`],
              ['Client', record.clientEmail],
              ['Client account', record.accountId],
            ]}
          />
        </Section>
        <Section title="Workflow" id="workflow-title">
          <Fields
            rows={[
              ['Status', <GenerationStatusChip status={record.status} />],
              ['Failure code', record.failure?.code ?? ''],
              ['Prediction id', <span data-testid="prediction-id">{record.predictionId ?? ''}</span>],
              ['Execution name', record.executionName],
              ['Credits reserved', String(record.creditsReserved ?? 0)],
              ['Credits spent', String(record.creditsSpent)],
              ['Last change', formatDateTime(record.updatedAt)],
            ]}
          />
        </Section>
      </Box>

      <Section title="Workflow steps" id="steps-title">
        {steps.length ? <StepTimeline steps={steps} /> : <Typography color="text.secondary">No step recorded yet.</Typography>}
      </Section>

      <Section title="Images" id="images-title">
        {images.length ? (
          <Box component="ul" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: 2, p: 0, m: 0, listStyle: 'none' }}>
            {images.map((image) => (
              <ImageCard key={image.licenseId} image={image} talentName={record.talentName} siteUrl={siteUrl} />
            ))}
          </Box>
        ) : (
          <Typography color="text.secondary">
            {running ? 'The images appear here once they are delivered.' : 'No image was delivered.'}
          </Typography>
        )}
      </Section>
    </Stack>
  );
}

/** The workflow's steps in order, as a vertical timeline: step, time and detail. */
function StepTimeline({ steps }: { steps: AdminGeneration['steps'] }) {
  return (
    <Box component="ol" aria-labelledby="steps-title" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {steps.map((s, i) => (
        <Box
          component="li"
          key={`${s.at}-${i}`}
          data-testid="generation-step"
          sx={{ display: 'grid', gridTemplateColumns: '20px 1fr', columnGap: 1.5, position: 'relative', pb: i === steps.length - 1 ? 0 : 2 }}
        >
          <Box aria-hidden sx={{ position: 'relative', display: 'flex', justifyContent: 'center' }}>
            <Box sx={{ width: 12, height: 12, mt: 0.5, borderRadius: '50%', bgcolor: /fail|error|timed|cancel/i.test(s.step) ? 'error.main' : 'primary.main', zIndex: 1 }} />
            {i < steps.length - 1 ? <Box sx={{ position: 'absolute', top: 16, bottom: -16, width: 2, bgcolor: 'divider' }} /> : null}
          </Box>
          <Box>
            <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'baseline', flexWrap: 'wrap' }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {stepLabel(s.step)}
              </Typography>
              <Typography variant="caption" color="text.secondary" component="time" dateTime={s.at}>
                {formatTime(s.at)}
              </Typography>
            </Box>
            {s.detail ? (
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {s.detail}
              </Typography>
            ) : null}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

const timeWithSeconds = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
/** Steps are seconds apart: show the seconds. */
function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : timeWithSeconds.format(d);
}

/** A delivered image: its thumbnail (a short-lived view URL), its license, and a download of the original. */
function ImageCard({ image, talentName, siteUrl }: { image: GenerationImage; talentName: string; siteUrl?: string }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [pending, setPending] = useState(false);
  const download = async () => {
    setPending(true);
    try {
      const { data } = await dataProvider.downloadLicense(image.licenseId);
      if (!data?.url) throw new Error('The download could not be prepared.');
      // The file is served as an attachment named after the talent and the license.
      const a = document.createElement('a');
      a.href = data.url;
      a.rel = 'noopener';
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch (e) {
      notify(errorText(e, 'The download could not be prepared.'), { type: 'error' });
    } finally {
      setPending(false);
    }
  };
  return (
    <Card component="li" variant="outlined" data-testid="generation-image">
      <Box
        component="img"
        src={image.url}
        alt={`Image ${image.index + 1} of ${talentName}`}
        loading="lazy"
        sx={{ display: 'block', width: '100%', aspectRatio: '1 / 1', objectFit: 'cover', bgcolor: 'action.hover' }}
      />
      <Box sx={{ p: 1.5, display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          License{' '}
          {siteUrl ? (
            <Link href={`${siteUrl}${licensePath(image.licenseId)}`} target="_blank" rel="noopener">
              {image.licenseId}
            </Link>
          ) : (
            image.licenseId
          )}
        </Typography>
        <Button
          size="small"
          variant="outlined"
          onClick={download}
          disabled={pending}
          startIcon={pending ? <CircularProgress size={14} color="inherit" /> : <DownloadIcon />}
          aria-label={`Download image ${image.index + 1}`}
        >
          Download
        </Button>
      </Box>
    </Card>
  );
}
