import { Suspense, type ReactElement } from 'react';
import Typography from '@mui/material/Typography';
import Box from '@mui/material/Box';
import {
  BooleanInput,
  CreateButton,
  DataTable,
  DeleteButton,
  EditButton,
  FilterButton,
  List,
  NumberInput,
  Pagination,
  SearchInput,
  SelectInput,
  ShowButton,
  TextInput,
  TopToolbar,
  useCanAccess,
  useListContext,
  useResourceContext,
  type RaRecord,
} from 'react-admin';
import { useTranslate } from 'ra-core';
import { filterDefOf, type FilterDef, type ResourceDefinition } from '../types';
import { ColumnValue } from './ColumnValue';
import { DayInput } from './DayInput';
import { ReferencePicker } from './FieldInput';
import { DATATABLE_SX, LIST_SX, PAGE_SIZES } from './listStyles';
import { ListExportButton } from './ListExportButton';
import { useClientState } from '../../state/useClientState';
import type { Level } from '../../domain/levels';
import { PageHeading } from './PageHeading';

function filterInput(filter: FilterDef, choices: { id: string | number; name: string }[]): ReactElement {
  const common = { key: filter.source, source: filter.source, label: filter.label, alwaysOn: filter.alwaysOn || filter.required };
  switch (filter.kind) {
    case 'search':
      return <SearchInput {...common} alwaysOn />;
    case 'date':
      return <DayInput {...common} />;
    case 'number':
      return <NumberInput {...common} />;
    case 'boolean':
      return <BooleanInput {...common} />;
    case 'select':
      return <SelectInput {...common} choices={choices} />;
    case 'reference':
      return filter.reference ? (
        <ReferencePicker
          key={filter.source}
          source={filter.source}
          reference={filter.reference}
          label={filter.label}
          alwaysOn={common.alwaysOn}
        />
      ) : (
        <TextInput {...common} />
      );
    default:
      return <TextInput {...common} />;
  }
}

/** The filters of a definition as react-admin inputs (select choices translated). */
function useFilterInputs(definition: ResourceDefinition): { inputs: ReactElement[]; addable: boolean } {
  const defs = definition.filters.map(filterDefOf);
  const translate = useTranslate();
  const inputs = defs.map((f) =>
    filterInput(
      f,
      (f.choices ?? []).map((c) => ({ id: c.id, name: translate(c.nameKey) })),
    ),
  );
  return { inputs, addable: defs.some((f) => !f.alwaysOn && !f.required && f.kind !== 'search') };
}

/** The list's empty state; while a required filter has no value it asks for it instead. */
function EmptyState({ definition }: { definition: ResourceDefinition }) {
  const translate = useTranslate();
  const resource = useResourceContext();
  const { filterValues } = useListContext();
  const missing = definition.filters
    .map(filterDefOf)
    .find((f) => f.required && (filterValues[f.source] === undefined || filterValues[f.source] === ''));
  const field = missing ? translate(missing.label ?? `resources.${resource}.fields.${missing.source}`) : '';
  return (
    <Box sx={{ p: 3, textAlign: 'center' }} data-testid="list-empty">
      <Typography color="text.secondary">
        {missing ? translate('console.list.chooseFirst', { field }) : translate('console.list.empty')}
      </Typography>
    </Box>
  );
}

function RowActions({ definition }: { definition: ResourceDefinition }) {
  const resource = useResourceContext();
  const { canAccess: canDelete } = useCanAccess({ resource, action: 'delete' });
  return (
    <span style={{ display: 'inline-flex', gap: 4, flexWrap: 'nowrap' }}>
      {definition.endpoints.one && definition.show && <ShowButton />}
      {definition.endpoints.update && <EditButton />}
      {definition.rowActions?.map(({ key, component: Action }) => (
        // A row action may be loaded with the list (lazyView): the row waits for it alone.
        <Suspense key={key} fallback={null}>
          <Action />
        </Suspense>
      ))}
      {definition.endpoints.delete && canDelete && (
        <DeleteButton mutationMode="pessimistic" mutationOptions={{ onError: () => undefined }} />
      )}
    </span>
  );
}

function ListActions({ definition, addable }: { definition: ResourceDefinition; addable: boolean }) {
  const resource = useResourceContext();
  const { canAccess: canExport } = useCanAccess({ resource, action: 'export' });
  return (
    <TopToolbar>
      {addable && <FilterButton />}
      {definition.endpoints.create && <CreateButton />}
      {definition.endpoints.export && canExport && (
        <ListExportButton path={definition.endpoints.export.path} label="console.action.export" />
      )}
    </TopToolbar>
  );
}

/** The generic List: server-paged DataTable, the definition's columns, filters, sort, row and bulk actions. */
export function ResourceList({ definition }: { definition: ResourceDefinition }) {
  const { inputs, addable } = useFilterInputs(definition);
  const level = useClientState((s) => s.permissionLevel);
  // A reader who may neither edit nor delete gets no empty actions column.
  const { canAccess: canEdit } = useCanAccess({ resource: definition.name, action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: definition.name, action: 'delete' });
  const hasRowActions = Boolean(
    (definition.endpoints.update && canEdit) ||
    (definition.endpoints.delete && canDelete) ||
    definition.rowActions?.length ||
    (definition.show && definition.endpoints.one),
  );
  const bulk = definition.bulkActions?.length ? (
    <>
      {definition.bulkActions.map(({ key, component: Action }) => (
        <Suspense key={key} fallback={null}>
          <Action />
        </Suspense>
      ))}
    </>
  ) : (
    false
  );
  return (
    <>
      <PageHeading titleKey={definition.menu.titleKey} />
      <List
        filters={inputs}
        filter={definition.permanentFilter}
        perPage={definition.perPage ?? PAGE_SIZES[0]}
        pagination={<Pagination rowsPerPageOptions={PAGE_SIZES} />}
        sort={definition.sort ?? { field: 'id', order: 'ASC' }}
        actions={<ListActions definition={definition} addable={addable} />}
        empty={false}
        queryOptions={{ onError: () => undefined }}
        disableSyncWithLocation={false}
        sx={LIST_SX}
      >
        {definition.listPanel && (
          <Suspense fallback={null}>
            <definition.listPanel />
          </Suspense>
        )}
        <DataTable
          rowClick={definition.show ? 'show' : false}
          bulkActionButtons={bulk}
          empty={<EmptyState definition={definition} />}
          sx={DATATABLE_SX}
        >
          {definition.columns
            .filter((c) => !c.levels || c.levels.includes(level as Level))
            .map((column) => (
              <DataTable.Col
                key={column.source}
                source={column.source}
                label={column.label}
                disableSort={!column.sortable}
                render={(record: RaRecord) => <ColumnValue column={column} record={record} />}
              />
            ))}
          {hasRowActions && (
            <DataTable.Col label="console.table.actions" disableSort render={() => <RowActions definition={definition} />} />
          )}
        </DataTable>
      </List>
    </>
  );
}
