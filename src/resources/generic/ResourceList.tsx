import { CreateButton, DataTable, DateInput, DeleteWithConfirmButton, EditButton, FilterButton, List, SearchInput, TextInput, TopToolbar, useTranslate } from 'react-admin';
import type { RaRecord } from 'react-admin';
import { useDateFormatter } from '../../format/useDateFormatter';
import type { ColumnDef, ResourceDefinition } from '../types';
import { DATATABLE_SX, LIST_SX } from './listStyles';
import { ListExportButton } from './ListExportButton';

function ColumnValue({ column, record }: { column: ColumnDef; record: RaRecord }) {
  const translate = useTranslate();
  const format = useDateFormatter();
  const value = record[column.source];
  if (column.kind === 'date') return <>{format(value as string)}</>;
  if (column.kind === 'json') {
    const text = value && typeof value === 'object' ? Object.entries(value).map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`).join(', ') : '';
    return <span title={text} style={{ display: 'inline-block', maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'bottom' }}>{text}</span>;
  }
  if (column.kind === 'choice' && value !== null && value !== undefined && value !== '') return <>{translate(`${column.choicePrefix}${String(value)}`, { _: String(value) })}</>;
  return <>{value === null || value === undefined ? '' : String(value)}</>;
}

/** The generic List: server-paged DataTable, the definition's columns and filters, row actions. */
export function ResourceList({ definition }: { definition: ResourceDefinition }) {
  const filters = definition.filters.map((filter, i) => {
    if (typeof filter !== 'string') return <DateInput key={filter.source} source={filter.source} alwaysOn />;
    return i === 0 ? <SearchInput key={filter} source={filter} alwaysOn /> : <TextInput key={filter} source={filter} />;
  });
  const canEdit = Boolean(definition.endpoints.update);
  return (
    <List
      filters={filters}
      perPage={10}
      sort={{ field: 'id', order: 'ASC' }}
      actions={<TopToolbar>
        {definition.filters.some((f, i) => i > 0 && typeof f === 'string') && <FilterButton />}
        {definition.endpoints.create && <CreateButton />}
        {definition.endpoints.export && <ListExportButton path={definition.endpoints.export.path} label="console.action.export" />}
      </TopToolbar>}
      queryOptions={{ onError: () => undefined }}
      disableSyncWithLocation={false}
      sx={LIST_SX}
    >
      <DataTable rowClick={false} bulkActionButtons={false} sx={DATATABLE_SX}>
        {definition.columns.map((column) => (
          <DataTable.Col key={column.source} source={column.source} disableSort={!column.sortable} render={(record: RaRecord) => <ColumnValue column={column} record={record} />} />
        ))}
        {(canEdit || definition.rowActions?.length || definition.canDelete) && <DataTable.Col label="console.table.actions" disableSort render={() => (
          <span style={{ display: 'inline-flex', gap: 4, flexWrap: 'nowrap' }}>
            {canEdit && <EditButton />}
            {definition.rowActions?.map(({ key, component: Action }) => <Action key={key} />)}
            {definition.canDelete && <DeleteWithConfirmButton mutationMode="pessimistic" mutationOptions={{ onError: () => undefined }} />}
          </span>
        )} />}
      </DataTable>
    </List>
  );
}
