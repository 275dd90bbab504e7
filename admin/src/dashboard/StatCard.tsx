import type { ReactNode } from 'react';
import { Box, Card, CardContent, LinearProgress, Typography } from '@mui/material';

/** One figure of the dashboard: an icon, a title, the figure and what it means. */
export function StatCard({
  id,
  icon,
  title,
  value,
  caption,
  progress,
  children,
  to,
}: {
  id: string;
  icon: ReactNode;
  title: string;
  value: ReactNode;
  caption?: ReactNode;
  /** 0-100: draws a bar under the figure. */
  progress?: number;
  children?: ReactNode;
  to?: string;
}) {
  return (
    <Card component="section" aria-labelledby={`${id}-title`} sx={{ flex: '1 1 260px', minWidth: 260, display: 'flex' }}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1, width: '100%' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          {icon}
          <Typography id={`${id}-title`} component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
        </Box>
        <Typography data-testid={`${id}-value`} component="p" sx={{ fontSize: '1.75rem', fontWeight: 600, lineHeight: 1.2 }}>
          {to ? (
            <Box component="a" href={to} sx={{ color: 'inherit', textDecoration: 'none', '&:hover': { textDecoration: 'underline' } }}>
              {value}
            </Box>
          ) : (
            value
          )}
        </Typography>
        {progress !== undefined ? (
          <LinearProgress variant="determinate" value={Math.min(100, Math.max(0, progress))} aria-label={`${title} filled`} sx={{ height: 8, borderRadius: 4 }} />
        ) : null}
        {caption ? (
          <Typography variant="body2" color="text.secondary">
            {caption}
          </Typography>
        ) : null}
        {children}
      </CardContent>
    </Card>
  );
}

export const percent = (count: number, capacity: number) => (capacity > 0 ? Math.min(100, Math.round((count / capacity) * 100)) : 0);
