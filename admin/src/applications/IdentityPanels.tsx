import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Box, Chip, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useNotify } from 'react-admin';
import type { ApplicationDetail } from '../../../events/founding';
import type { ReviewIdentity } from '../../../events/identity';
import { Fields, Section } from '../common/DetailSection';
import { formatDateTime } from '../common/format';
import {
  ageFindingText,
  attemptText,
  comparisonPhotos,
  copyMeasureText,
  failedCheckText,
  galleryPhotos,
  identityStateText,
  nameFindingText,
  scoreText,
  SELFIE_HEADLINES,
  selfieFindingText,
  selfieResultText,
  shortHash,
  summaryText,
  verificationText,
} from './labels';

/**
 * Above the gallery: where the identity check stands, in words, and the findings summary
 * ("27 usable · 2 no face · 1 another person").
 */
export function IdentitySummary({ identity, replaced }: { identity: ReviewIdentity; replaced: number }) {
  const details = [
    identity.summary ? `${identity.summary.total} ${identity.summary.total === 1 ? 'photo' : 'photos'} checked` : '',
    replaced ? `${replaced} replaced` : '',
    identity.replacementRounds ? `${identity.replacementRounds} ${identity.replacementRounds === 1 ? 'round' : 'rounds'} of replacements asked for` : '',
  ].filter(Boolean);
  return (
    <Box data-testid="identity-summary" sx={{ mb: 1.5 }}>
      <Typography variant="body2">
        <Box component="span" sx={{ color: 'text.secondary' }}>
          Face checks:{' '}
        </Box>
        <Box component="span" sx={{ fontWeight: 500 }}>
          {identityStateText(identity)}
        </Box>
      </Typography>
      {identity.summary ? (
        <Typography variant="body1" data-testid="findings-summary" sx={{ fontWeight: 600 }}>
          {summaryText(identity.summary)}
        </Typography>
      ) : null}
      {details.length ? (
        <Typography variant="body2" color="text.secondary">
          {details.join(' · ')}
        </Typography>
      ) : null}
    </Box>
  );
}

/**
 * The ID verification with Stripe Identity (decision 056): where it stands ("ID verified"), the
 * name, age and selfie findings, every attempt with its status, error and time, when Stripe's
 * copy was redacted, and the checks that failed before a withdrawal of face consent. No document
 * image, number or date of birth is ever here: the server keeps none.
 */
export function VerificationSection({ application }: { application: ApplicationDetail }) {
  const identity = application.identity;
  if (!identity) return null;
  const verification = identity.verification;
  const selfie = identity.selfie;
  const photos = galleryPhotos(application.photos ?? [], application.photoResults);
  const numberOf = (index: number) => photos.find((p) => p.photo.index === index)?.number;
  const verified = verification?.state === 'verified';
  const withSelfie = verification?.type === 'document-and-selfie' || (!!selfie && selfie.state !== 'none');
  const score = selfie ? scoreText(selfie) : undefined;
  const copyMeasure = selfie?.state === 'copy' ? copyMeasureText(selfie.copyOf) : undefined;
  const rows: Array<[string, ReactNode]> = [
    [
      'Status',
      <Chip
        size="small"
        variant="outlined"
        label={verificationText(verification)}
        data-testid="verification-state"
        sx={verified ? { color: 'success.dark', borderColor: 'success.main' } : verification?.state === 'under-18' || verification?.state === 'failed' ? { color: 'error.dark', borderColor: 'error.main' } : {}}
      />,
    ],
  ];
  if (verification?.type) rows.push(['Checked', verification.type === 'document-and-selfie' ? 'ID document and a live selfie' : 'ID document only (no face checks)']);
  if (verification?.verifiedAt) rows.push(['Verified at', formatDateTime(verification.verifiedAt)]);
  if (verification?.name) rows.push(['Name', <span data-testid="name-finding">{nameFindingText(verification.name)}</span>]);
  if (verification?.age) rows.push(['Age', <span data-testid="age-finding">{ageFindingText(verification.age)}</span>]);
  if (withSelfie && selfie) {
    rows.push([
      'Selfie',
      <span data-testid="selfie-finding">
        {selfieFindingText(selfie, numberOf)}
        {score ? ` · score ${score}` : ''}
        {copyMeasure ? ` · ${copyMeasure}` : ''}
      </span>,
    ]);
  }
  if (verification?.redactedAt) rows.push(['Redacted at', `${formatDateTime(verification.redactedAt)}: Stripe’s copy (images, document number, date of birth) deleted`]);

  return (
    <Section title="ID verification" id="verification-title">
      <Box data-testid="verification">
        <Fields rows={rows} />
        {identity.failedChecks?.length ? (
          <Box sx={{ mt: 2 }} data-testid="failed-checks">
            <Typography component="h3" variant="subtitle2">
              Checks that failed before face consent was withdrawn
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {identity.failedChecks.map((f) => (
                <Typography component="li" variant="body2" key={`${f.check}-${f.at}`}>
                  {failedCheckText(f)}
                </Typography>
              ))}
            </Box>
          </Box>
        ) : null}
        <Typography component="h3" variant="subtitle2" sx={{ mt: 2 }}>
          Attempts
        </Typography>
        {verification?.attempts.length ? (
          <Table size="small" aria-label="ID verification attempts" data-testid="verification-attempts">
            <TableHead>
              <TableRow>
                <TableCell>Session</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Opened</TableCell>
                <TableCell>Last change</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {verification.attempts.map((a) => (
                <TableRow key={a.sessionId}>
                  <TableCell sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>{a.sessionId}</TableCell>
                  <TableCell>{attemptText(a)}</TableCell>
                  <TableCell>{formatDateTime(a.createdAt)}</TableCell>
                  <TableCell>{formatDateTime(a.updatedAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <Typography variant="body2" color="text.secondary">
            No verification opened yet.
          </Typography>
        )}
      </Box>
    </Section>
  );
}

/**
 * The selfie of the ID verification beside two or three of the set's usable photos, for a human
 * comparison, with its result in words, the score against the threshold and when it was taken.
 */
export function SelfieSection({ application, onExpired }: { application: ApplicationDetail; onExpired: () => void }) {
  const identity = application.identity;
  if (!identity || (identity.faceConsent !== 'given' && !identity.selfie?.url)) return null;
  const selfie = identity.selfie ?? { state: 'none' as const };
  const matches = selfie.state === 'match';
  const score = scoreText(selfie);
  const compare = comparisonPhotos(galleryPhotos(application.photos ?? [], application.photoResults));
  const image = { width: '100%', aspectRatio: '1 / 1', objectFit: 'cover', display: 'block', borderRadius: 1, bgcolor: 'grey.200' } as const;

  return (
    <Section title="Selfie and the set" id="selfie-title">
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(0, 2fr) minmax(0, 3fr)' }, gap: 2, alignItems: 'start' }}>
        <Box data-testid="selfie">
          <Box component="figure" sx={{ m: 0, maxWidth: 280 }}>
            {selfie.url ? (
              <Box component="img" src={selfie.url} alt="The applicant’s selfie from the ID verification" onError={onExpired} sx={image} />
            ) : (
              <Box sx={{ ...image, display: 'grid', placeItems: 'center' }}>
                <Typography variant="body2">No selfie</Typography>
              </Box>
            )}
            <Typography component="figcaption" variant="caption" color="text.secondary">
              Selfie from the ID verification{selfie.takenAt ? `, taken ${formatDateTime(selfie.takenAt)}` : ''}
            </Typography>
          </Box>
          <Box sx={{ mt: 1, display: 'flex', flexDirection: 'column', gap: 0.5, alignItems: 'flex-start' }}>
            <Chip
              size="small"
              variant="outlined"
              label={SELFIE_HEADLINES[selfie.state]}
              sx={matches ? { color: 'success.dark', borderColor: 'success.main' } : selfie.state === 'none' || selfie.state === 'waiting-for-photos' ? {} : { color: 'error.dark', borderColor: 'error.main' }}
            />
            <Typography variant="body2">{selfieResultText(selfie)}</Typography>
            {score ? (
              <Typography variant="body2" data-testid="selfie-score">
                Score {score}
              </Typography>
            ) : null}
          </Box>
        </Box>
        <Box>
          <Typography component="h3" variant="subtitle2" sx={{ mb: 1 }}>
            Usable photos from the set
          </Typography>
          {compare.length ? (
            <Box sx={{ display: 'grid', gridTemplateColumns: `repeat(${compare.length}, minmax(0, 1fr))`, gap: 1, maxWidth: 480 }}>
              {compare.map((p) => (
                <Box component="figure" key={p.photo.index} sx={{ m: 0 }}>
                  <Box component="img" src={p.photo.thumbnailUrl} alt={`Photo ${p.number}`} onError={onExpired} sx={image} />
                  <Typography component="figcaption" variant="caption" color="text.secondary">
                    #{p.number}
                  </Typography>
                </Box>
              ))}
            </Box>
          ) : (
            <Typography variant="body2" color="text.secondary">
              No usable photo to compare with yet.
            </Typography>
          )}
        </Box>
      </Box>
    </Section>
  );
}

/** A SHA-256 shortened, the full value on hover and by the copy button. */
function Hash({ value, what }: { value: string; what: string }) {
  const notify = useNotify();
  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => notify(`The ${what} is copied.`, { type: 'info' }),
      () => notify(`The ${what} could not be copied: ${value}`, { type: 'warning' }),
    );
  };
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      <Box component="code" title={value} sx={{ fontFamily: 'monospace' }}>
        {shortHash(value)}
      </Box>
      <IconButton size="small" aria-label={`Copy the full ${what}`} onClick={copy}>
        <ContentCopyIcon fontSize="inherit" />
      </IconButton>
    </Box>
  );
}

/** The signed consent as recorded: read-only, kept unchanged. */
export function ConsentRecordSection({ identity }: { identity: ReviewIdentity }) {
  const consent = identity.consent;
  return (
    <Section title="Signed consent" id="consent-record-title">
      {consent ? (
        <>
          <Fields
            rows={[
              ['Consent text', `Version ${consent.version}`],
              ['Typed name', consent.typedName],
              ['Signed at', formatDateTime(consent.signedAt)],
              ['Face data consent', `${consent.faceConsent === 'given' ? 'Given' : 'Declined'} (version ${consent.faceConsentVersion})`],
              ...(identity.faceConsentWithdrawnAt
                ? [['Face consent withdrawn', <span data-testid="face-consent-withdrawn">{`On ${formatDateTime(identity.faceConsentWithdrawnAt)}: selfie and face analyses deleted`}</span>] satisfies [string, ReactNode]]
                : []),
              ['Photo set hash', consent.photoSetHash ? <Hash value={consent.photoSetHash} what="photo set hash" /> : 'Not checked yet'],
              ['Selfie hash', consent.selfieHash ? <Hash value={consent.selfieHash} what="selfie hash" /> : 'No selfie yet'],
            ]}
          />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
            Kept unchanged: the record is written once when the applicant signs and cannot be edited
            {identity.faceConsentWithdrawnAt ? '; the withdrawal is recorded beside it' : ''}.
          </Typography>
        </>
      ) : (
        <Typography variant="body2" color="text.secondary">
          Not signed yet.
        </Typography>
      )}
    </Section>
  );
}
