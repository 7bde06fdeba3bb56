import { Labeled, Show, SimpleShowLayout, useRecordContext } from 'react-admin';
import type { ResourceDefinition } from '../types';
import { ColumnValue } from './ColumnValue';
import { PageHeading } from './PageHeading';

function ShowFields({ definition }: { definition: ResourceDefinition }) {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <>
      {definition.columns.map((column) => (
        <Labeled key={column.source} source={column.source} label={column.label}>
          <ColumnValue column={column} record={record} />
        </Labeled>
      ))}
    </>
  );
}

/** The generic Show page: the list's columns of one record, labelled. */
export function ResourceShow({ definition }: { definition: ResourceDefinition }) {
  return (
    <>
      <PageHeading titleKey={definition.menu.titleKey} actionKey="ra.action.show" />
      <Show queryOptions={{ onError: () => undefined }}>
        <SimpleShowLayout>
          <ShowFields definition={definition} />
        </SimpleShowLayout>
      </Show>
    </>
  );
}
