import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useTranslate } from 'ra-core';
import type { ActiveAlarm, FaultGuide } from '../../api/supportApi';
import { useClientState } from '../../state/useClientState';

export const SEVERITY_COLOR = { critical: 'error', major: 'warning', minor: 'info' } as const;

/** Every fault code as a chip, the vessel's active ones first (coloured by severity). */
export function FaultCodeChips({
  guide,
  active,
  selected,
  onPick,
}: {
  guide: FaultGuide[];
  active: ActiveAlarm[];
  selected: string | null;
  onPick: (code: string) => void;
}) {
  const t = useTranslate();
  const language = useClientState((s) => s.language);
  const activeCodes = new Set(active.map((a) => a.code));
  const ordered = [...guide.filter((g) => activeCodes.has(g.code)), ...guide.filter((g) => !activeCodes.has(g.code))];
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.75 }}>
      {ordered.map((g) => (
        <Chip
          key={g.code}
          data-testid={`fc-code-${g.code}`}
          label={activeCodes.has(g.code) ? `${g.code} ●` : g.code}
          title={g.meaning[language]}
          color={activeCodes.has(g.code) ? SEVERITY_COLOR[g.severity] : selected === g.code ? 'primary' : 'default'}
          variant={selected === g.code ? 'filled' : 'outlined'}
          onClick={() => onPick(g.code)}
          aria-label={`${t('support.fault.code')} ${g.code}`}
        />
      ))}
    </Stack>
  );
}
