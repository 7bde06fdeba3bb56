import { useId } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { EditButton, Show, TopToolbar, useCanAccess, useRecordContext, type RaRecord } from 'react-admin';
import { useTranslate, useTranslateLabel } from 'ra-core';
import { useClientState } from '../../state/useClientState';
import type { ResourceDefinition } from '../types';
import { ColumnValue } from './ColumnValue';
import { useChoices } from './FieldInput';
import { PageHeading } from './PageHeading';
import { groupBySection, type Section } from './sections';
import { showItems, type ShowItem } from './showItems';

/** One column on a phone, two from 600 px (a 900 px window), three from 1280 px (1440 px). */
const GRID_SX = {
  display: 'grid',
  gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
  columnGap: 3,
  rowGap: 2,
  m: 0,
} as const;

const isEmpty = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length);

/** A select field's value by its choice's name (a multiselect's values, each by its name). */
function ChoiceValue({ item, value }: { item: ShowItem; value: unknown }) {
  const choices = useChoices(item.choices);
  const name = (one: unknown) => choices.find((c) => String(c.id) === String(one))?.name ?? String(one);
  return <>{Array.isArray(value) ? value.map(name).join(', ') : name(value)}</>;
}

/** A value as the list draws it; an empty one as a dash, so every label has something under it. */
function ShowValue({ item, record }: { item: ShowItem; record: RaRecord }) {
  const value = record[item.source];
  // A geometry is drawn from several fields (a circle has no points).
  if (isEmpty(value) && item.column.kind !== 'geometry')
    return (
      <Box component="span" sx={{ color: 'text.disabled' }}>
        —
      </Box>
    );
  if (item.choices) return <ChoiceValue item={item} value={value} />;
  if (item.file && typeof value === 'object') {
    const file = value as { title?: string; src?: string };
    return <>{file.title ?? file.src ?? ''}</>;
  }
  return <ColumnValue column={item.column} record={record} />;
}

/** One group of labelled values: label above value, in a grid; a named section has its own small heading. */
function ShowSection({ section, resource, record }: { section: Section<ShowItem>; resource: string; record: RaRecord }) {
  const translate = useTranslate();
  const translateLabel = useTranslateLabel();
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={section.key ? headingId : undefined} data-testid={`show-section-${section.key ?? 'main'}`}>
      {section.key && (
        <Typography
          id={headingId}
          component="h2"
          variant="subtitle2"
          sx={{ fontWeight: 600, mb: 1.5, pb: 0.5, borderBottom: 1, borderColor: 'divider' }}
        >
          {translate(section.key)}
        </Typography>
      )}
      <Box component="dl" sx={GRID_SX}>
        {section.items.map((item) => (
          <Box
            key={item.source}
            // A map takes the whole row.
            sx={{ minWidth: 0, gridColumn: item.column.kind === 'geometry' ? '1 / -1' : undefined }}
            data-testid={`show-${item.source}`}
          >
            <Typography component="dt" variant="caption" sx={{ display: 'block', color: 'text.secondary', lineHeight: 1.5 }}>
              {translateLabel({ label: item.label, resource, source: item.source })}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, mt: 0.25, overflowWrap: 'anywhere' }}>
              <ShowValue item={item} record={record} />
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

function ShowSections({ definition }: { definition: ResourceDefinition }) {
  const record = useRecordContext();
  const level = useClientState((s) => s.permissionLevel);
  if (!record) return null;
  const items = showItems(definition).filter((item) => !item.when || item.when(record, level));
  return (
    <Box sx={{ p: { xs: 2, sm: 3 }, display: 'flex', flexDirection: 'column', rowGap: 3 }}>
      {groupBySection(items).map((section) => (
        <ShowSection key={section.key ?? ''} section={section} resource={definition.name} record={record} />
      ))}
    </Box>
  );
}

/**
 * The generic Show page: one record's fields, labelled, in the definition's sections (the untitled
 * group first), then the list's other columns; values drawn as the list draws them (dates in the
 * user's time zone, choices in words, references by name).
 */
export function ResourceShow({ definition }: { definition: ResourceDefinition }) {
  // A reader who may not edit (level 3 on an alarm rule, anyone on a read-only log) gets no empty bar above the record.
  const { canAccess: canEdit, isPending } = useCanAccess({ resource: definition.name, action: 'edit' });
  const actions =
    definition.endpoints.update && canEdit && !isPending ? (
      <TopToolbar>
        <EditButton />
      </TopToolbar>
    ) : (
      false
    );
  return (
    <>
      <PageHeading titleKey={definition.menu.titleKey} actionKey="ra.action.show" />
      <Show queryOptions={{ onError: () => undefined }} actions={actions}>
        <ShowSections definition={definition} />
      </Show>
    </>
  );
}
