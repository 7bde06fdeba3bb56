import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** Label / value pairs in a responsive grid (one column on phones). */
export function FieldGrid({ items, testId }: { items: { label: string; value: ReactNode }[]; testId?: string }) {
  return (
    <Box
      data-testid={testId}
      sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' }, columnGap: 3, rowGap: 1 }}
    >
      {items.map(({ label, value }) => (
        <Box key={label} sx={{ display: 'flex', gap: 1, minWidth: 0, borderBottom: 1, borderColor: 'divider', py: 0.5 }}>
          <Typography variant="body2" color="text.secondary" sx={{ flex: '0 0 45%', minWidth: 0 }}>
            {label}
          </Typography>
          <Typography variant="body2" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
            {value === null || value === undefined || value === '' ? '—' : value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
