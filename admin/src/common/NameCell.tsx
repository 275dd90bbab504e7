import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A list cell: a name in bold above a caption (a talent's name, and the style or their id). */
export function NameCell({ name, caption }: { name: ReactNode; caption: ReactNode }) {
  return (
    <Box>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {name}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {caption}
      </Typography>
    </Box>
  );
}
