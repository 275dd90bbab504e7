import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import CloseIcon from '@mui/icons-material/Close';
import { Box, Dialog, IconButton, Typography } from '@mui/material';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ApplicationDetail } from '../../../events/founding';

type Photo = ApplicationDetail['photos'][number];

/** Thumbnails of the first rows load at once (the first row first); the rest as they scroll into view. */
const EAGER_THUMBNAILS = 14;
const FIRST_ROW = 7;

/**
 * The application's accepted photos: 320 px thumbnails first, a full-size view on click with
 * arrow keys, Home/End and Escape. URLs are short-lived; when one has expired (the image fails
 * to load) `onExpired` fetches fresh ones.
 */
export function PhotoGallery({ photos, name, onExpired }: { photos: Photo[]; name: string; onExpired: () => void }) {
  const [open, setOpen] = useState<number | null>(null);
  const thumbs = useRef<Array<HTMLButtonElement | null>>([]);
  const lastRefresh = useRef(0);

  const expired = useCallback(() => {
    // One refresh per half minute at most, however many images fail at once.
    if (Date.now() - lastRefresh.current < 30_000) return;
    lastRefresh.current = Date.now();
    onExpired();
  }, [onExpired]);

  const move = useCallback(
    (to: number) => {
      const next = (to + photos.length) % photos.length;
      setOpen(next);
    },
    [photos.length],
  );

  // Keyboard navigation across the thumbnail grid (arrows move focus, Enter/Space open).
  const onGridKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = thumbs.current.findIndex((t) => t === document.activeElement);
    if (index < 0) return;
    const step = { ArrowRight: 1, ArrowLeft: -1, Home: -index, End: photos.length - 1 - index }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    thumbs.current[Math.min(photos.length - 1, Math.max(0, index + step))]?.focus();
  };

  if (!photos.length) {
    return <Typography color="text.secondary">No accepted photos to show.</Typography>;
  }

  return (
    <>
      <Box
        role="list"
        aria-label={`Photos of ${name}`}
        onKeyDown={onGridKey}
        sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(128px, 1fr))', gap: 1 }}
      >
        {photos.map((photo, i) => (
          <Box role="listitem" key={photo.index}>
            <Box
              component="button"
              type="button"
              ref={(el: HTMLButtonElement | null) => {
                thumbs.current[i] = el;
              }}
              onClick={() => setOpen(i)}
              aria-label={`Open photo ${i + 1} of ${photos.length}`}
              sx={{
                p: 0,
                border: 0,
                borderRadius: 1,
                overflow: 'hidden',
                cursor: 'zoom-in',
                display: 'block',
                width: '100%',
                aspectRatio: '1 / 1',
                bgcolor: 'grey.200',
                outlineOffset: 2,
                '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.main' },
              }}
            >
              <Box
                component="img"
                data-testid="gallery-thumbnail"
                src={photo.thumbnailUrl}
                alt={`Photo ${i + 1}`}
                loading={i < EAGER_THUMBNAILS ? 'eager' : 'lazy'}
                fetchPriority={i < FIRST_ROW ? 'high' : 'auto'}
                decoding="async"
                onError={expired}
                sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
              />
            </Box>
          </Box>
        ))}
      </Box>
      <Lightbox photos={photos} index={open} onMove={move} onClose={() => {
        const was = open;
        setOpen(null);
        if (was !== null) thumbs.current[was]?.focus();
      }} onExpired={expired} />
    </>
  );
}

function Lightbox({
  photos,
  index,
  onMove,
  onClose,
  onExpired,
}: {
  photos: Photo[];
  index: number | null;
  onMove: (to: number) => void;
  onClose: () => void;
  onExpired: () => void;
}) {
  const photo = index === null ? undefined : photos[index];
  useEffect(() => {
    if (index === null) return;
    // Warm the neighbours so the arrow keys feel instant.
    for (const n of [index + 1, index - 1]) {
      const p = photos[(n + photos.length) % photos.length];
      if (p) new Image().src = p.url;
    }
  }, [index, photos]);

  const onKey = (event: KeyboardEvent) => {
    if (index === null) return;
    if (event.key === 'ArrowRight') onMove(index + 1);
    else if (event.key === 'ArrowLeft') onMove(index - 1);
    else if (event.key === 'Home') onMove(0);
    else if (event.key === 'End') onMove(photos.length - 1);
    else return;
    event.preventDefault();
  };

  return (
    <Dialog
      open={index !== null}
      onClose={onClose}
      onKeyDown={onKey}
      maxWidth={false}
      aria-label={photo ? `Photo ${index! + 1} of ${photos.length}` : 'Photo'}
      slotProps={{ paper: { sx: { bgcolor: '#111', color: '#fff', m: 2 } } }}
    >
      {photo ? (
        <Box sx={{ position: 'relative', display: 'flex', flexDirection: 'column', alignItems: 'center', p: 1 }}>
          <Box sx={{ display: 'flex', width: '100%', alignItems: 'center', justifyContent: 'space-between', px: 1, pb: 1 }}>
            <Typography variant="body2" aria-live="polite">
              Photo {index! + 1} of {photos.length} · {photo.width} × {photo.height} px
            </Typography>
            <IconButton aria-label="Close" onClick={onClose} sx={{ color: '#fff' }}>
              <CloseIcon />
            </IconButton>
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <IconButton aria-label="Previous photo" onClick={() => onMove(index! - 1)} sx={{ color: '#fff' }}>
              <ChevronLeftIcon fontSize="large" />
            </IconButton>
            <Box
              component="img"
              data-testid="gallery-full"
              key={photo.index}
              src={photo.url}
              alt={`Photo ${index! + 1}, full size`}
              onError={onExpired}
              sx={{ maxWidth: 'calc(100vw - 200px)', maxHeight: 'calc(100vh - 140px)', objectFit: 'contain', display: 'block', bgcolor: '#222' }}
            />
            <IconButton aria-label="Next photo" onClick={() => onMove(index! + 1)} sx={{ color: '#fff' }}>
              <ChevronRightIcon fontSize="large" />
            </IconButton>
          </Box>
        </Box>
      ) : null}
    </Dialog>
  );
}
