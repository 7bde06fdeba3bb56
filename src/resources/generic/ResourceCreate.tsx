import { Create } from 'react-admin';
import { useClientState } from '../../state/useClientState';
import type { ResourceDefinition } from '../types';
import { ResourceForm } from './ResourceForm';
import { PageHeading } from './PageHeading';

/** The generic Create page. Errors are shown once, by the error catalogue. */
export function ResourceCreate({ definition }: { definition: ResourceDefinition }) {
  const level = useClientState((s) => s.permissionLevel);
  return (
    <>
      <PageHeading titleKey={definition.menu.titleKey} actionKey="ra.action.create" />
      <Create redirect="list" mutationOptions={{ onError: () => undefined }}>
        <ResourceForm definition={definition} mode="create" defaults={definition.defaults?.(level)} />
      </Create>
    </>
  );
}
