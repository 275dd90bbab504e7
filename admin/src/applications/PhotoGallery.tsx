import CheckIcon from '@mui/icons-material/Check';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import CloseIcon from '@mui/icons-material/Close';
import { Box, Chip, Dialog, IconButton, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ApplicationDetail, PhotoResult } from '../../../events/founding';
import { findingLabel, galleryPhotos, notUsable, type GalleryPhoto } from './labels';

type Photo = ApplicationDetail['photos'][number];
type Filter = 'all' | 'not-usable';

/** Thumbnails of the first rows load at once (the first row first); the rest as they scroll into view. */
const EAGER_THUMBNAILS = 14;
const FIRST_ROW = 7;

/** The gallery's number of the photo stored at `index` (what "Duplicate of #n" names). */
const numbering = (items: GalleryPhoto[]) => {
  const numbers = new Map(items.map((p) => [p.photo.index, p.number]));
  return (index: number) => numbers.get(index);
};

/**
 * The application's accepted photos: 320 px thumbnails first, a full-size view on click with
 * arrow keys, Home/End and Escape. Each photo shows its face check (docs/identity.md): a badge
 * per finding, "Usable", or "Replaced" (greyed: no longer in the set), and a filter shows the
 * photos that are not usable. URLs are short-lived; when one has expired (the image fails to
 * load) `onExpired` fetches fresh ones.
 */
export function PhotoGallery({ photos, results, name, onExpired }: { photos: Photo[]; results?: PhotoResult[]; name: string; onExpired: () => void }) {
  const items = useMemo(() => galleryPhotos(photos, results), [photos, results]);
  const numberOf = useMemo(() => numbering(items), [items]);
  const checked = items.some((p) => p.usable !== undefined);
  const [filter, setFilter] = useState<Filter>('all');
  const shown = useMemo(() => (checked && filter === 'not-usable' ? items.filter(notUsable) : items), [checked, filter, items]);
  const [open, setOpen] = useState<number | null>(null);
  const thumbs = useRef<Array<HTMLButtonElement | null>>([]);
  const lastRefresh = useRef(0);
  const filterLabel = useId();

  const expired = useCallback(() => {
    // One refresh per half minute at most, however many images fail at once.
    if (Date.now() - lastRefresh.current < 30_000) return;
    lastRefresh.current = Date.now();
    onExpired();
  }, [onExpired]);

  const move = useCallback(
    (to: number) => {
      const next = (to + shown.length) % shown.length;
      setOpen(next);
    },
    [shown.length],
  );

  // Keyboard navigation across the thumbnail grid (arrows move focus, Enter/Space open).
  const onGridKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = thumbs.current.findIndex((t) => t === document.activeElement);
    if (index < 0) return;
    const step = { ArrowRight: 1, ArrowLeft: -1, Home: -index, End: shown.length - 1 - index }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    thumbs.current[Math.min(shown.length - 1, Math.max(0, index + step))]?.focus();
  };

  if (!photos.length) {
    return <Typography color="text.secondary">No accepted photos to show.</Typography>;
  }

  return (
    <>
      {checked ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
          <Typography id={filterLabel} variant="body2" color="text.secondary">
            Show:
          </Typography>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={filter}
            onChange={(_, value: Filter | null) => {
              if (value) setFilter(value);
            }}
            aria-labelledby={filterLabel}
          >
            <ToggleButton value="all">All ({items.length})</ToggleButton>
            <ToggleButton value="not-usable">Not usable ({items.filter(notUsable).length})</ToggleButton>
          </ToggleButtonGroup>
        </Box>
      ) : null}
      {shown.length ? (
        <Box
          role="list"
          aria-label={`Photos of ${name}`}
          onKeyDown={onGridKey}
          sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(128px, 1fr))', gap: 1 }}
        >
          {shown.map((item, i) => (
            <Box role="listitem" key={item.photo.index} data-testid="gallery-photo" sx={{ minWidth: 0 }}>
              <Box
                component="button"
                type="button"
                ref={(el: HTMLButtonElement | null) => {
                  thumbs.current[i] = el;
                }}
                onClick={() => setOpen(i)}
                aria-label={`Open photo ${item.number} of ${items.length}`}
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
                  src={item.photo.thumbnailUrl}
                  alt={`Photo ${item.number}`}
                  loading={i < EAGER_THUMBNAILS ? 'eager' : 'lazy'}
                  fetchPriority={i < FIRST_ROW ? 'high' : 'auto'}
                  decoding="async"
                  onError={expired}
                  sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block', opacity: item.replaced ? 0.35 : 1, filter: item.replaced ? 'grayscale(1)' : 'none' }}
                />
              </Box>
              <PhotoBadges item={item} numberOf={numberOf} />
            </Box>
          ))}
        </Box>
      ) : (
        <Typography color="text.secondary">Every photo in the set is usable.</Typography>
      )}
      <Lightbox
        items={shown}
        total={items.length}
        numberOf={numberOf}
        index={open}
        onMove={move}
        onClose={() => {
          const was = open;
          setOpen(null);
          if (was !== null) thumbs.current[was]?.focus();
        }}
        onExpired={expired}
      />
    </>
  );
}

/** A photo's number and its face check, in text (never colour alone). */
function PhotoBadges({ item, numberOf }: { item: GalleryPhoto; numberOf: (index: number) => number | undefined }) {
  const chip = { height: 'auto', maxWidth: '100%', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } };
  return (
    <Box data-testid="photo-checks" sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.5, mt: 0.5 }}>
      <Typography variant="caption" color="text.secondary" sx={{ mr: 0.25 }}>
        #{item.number}
      </Typography>
      {item.replaced ? (
        <Chip size="small" variant="outlined" label="Replaced" sx={chip} />
      ) : item.findings.length ? (
        item.findings.map((f, i) => (
          <Chip
            key={`${f.code}-${i}`}
            size="small"
            variant="outlined"
            label={findingLabel(f, numberOf)}
            title={f.message}
            sx={{ ...chip, color: 'error.dark', borderColor: 'error.main' }}
          />
        ))
      ) : item.usable ? (
        <Typography variant="caption" sx={{ color: 'success.dark', display: 'inline-flex', alignItems: 'center', gap: 0.25 }}>
          <CheckIcon sx={{ fontSize: 14 }} aria-hidden />
          Usable
        </Typography>
      ) : item.usable === false ? (
        <Chip size="small" variant="outlined" label="Not usable" sx={{ ...chip, color: 'error.dark', borderColor: 'error.main' }} />
      ) : null}
    </Box>
  );
}

/** The face check of the photo in the full-size view, in words. */
function checkText(item: GalleryPhoto, numberOf: (index: number) => number | undefined): string {
  if (item.replaced) return 'Replaced: no longer in the set';
  if (item.findings.length) return `Not usable: ${item.findings.map((f) => findingLabel(f, numberOf)).join(', ')}`;
  if (item.usable) return 'Usable';
  return item.usable === false ? 'Not usable' : '';
}

function Lightbox({
  items,
  total,
  numberOf,
  index,
  onMove,
  onClose,
  onExpired,
}: {
  items: GalleryPhoto[];
  total: number;
  numberOf: (index: number) => number | undefined;
  index: number | null;
  onMove: (to: number) => void;
  onClose: () => void;
  onExpired: () => void;
}) {
  const item = index === null ? undefined : items[index];
  const photo = item?.photo;
  useEffect(() => {
    if (index === null) return;
    // Warm the neighbours so the arrow keys feel instant.
    for (const n of [index + 1, index - 1]) {
      const p = items[(n + items.length) % items.length];
      if (p) new Image().src = p.photo.url;
    }
  }, [index, items]);

  const onKey = (event: KeyboardEvent) => {
    if (index === null) return;
    if (event.key === 'ArrowRight') onMove(index + 1);
    else if (event.key === 'ArrowLeft') onMove(index - 1);
    else if (event.key === 'Home') onMove(0);
    else if (event.key === 'End') onMove(items.length - 1);
    else return;
    event.preventDefault();
  };
  const check = item ? checkText(item, numberOf) : '';

  return (
    <Dialog
      open={index !== null}
      onClose={onClose}
      onKeyDown={onKey}
      maxWidth={false}
      aria-label={item ? `Photo ${item.number} of ${total}` : 'Photo'}
      slotProps={{ paper: { sx: { bgcolor: '#111', color: '#fff', m: 2 } } }}
    >
      {item && photo ? (
        <Box sx={{ position: 'relative', display: 'flex', flexDirection: 'column', alignItems: 'center', p: 1 }}>
          <Box sx={{ display: 'flex', width: '100%', alignItems: 'center', justifyContent: 'space-between', gap: 1, px: 1, pb: 1 }}>
            <Box aria-live="polite">
              <Typography variant="body2">
                Photo {item.number} of {total} · {photo.width} × {photo.height} px
              </Typography>
              {check ? (
                <Typography variant="body2" data-testid="lightbox-checks">
                  {check}
                </Typography>
              ) : null}
            </Box>
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
              alt={`Photo ${item.number}, full size`}
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
