import { Edit } from 'react-admin';
import type { ResourceDefinition } from '../types';
import { ResourceForm } from './ResourceForm';
import { PageHeading } from './PageHeading';

/** The generic Edit page (pessimistic: the server validates before the list changes). */
export function ResourceEdit({ definition }: { definition: ResourceDefinition }) {
  return (
    <>
      <PageHeading titleKey={definition.menu.titleKey} actionKey="ra.action.edit" />
      <Edit
        mutationMode="pessimistic"
        redirect="list"
        mutationOptions={{ onError: () => undefined }}
        queryOptions={{ onError: () => undefined }}
      >
        <ResourceForm definition={definition} mode="edit" />
      </Edit>
    </>
  );
}
