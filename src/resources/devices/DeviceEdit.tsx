import { Create, Edit, useTranslate } from 'react-admin';
import { Level } from '../../domain/levels';
import { useClientState } from '../../state/useClientState';
import { DeviceForm } from './DeviceForm';
import { PageHeading } from '../generic/PageHeading';

/** New device: an enterprise's device is its own; errors are shown once (fields, or the catalogue). */
export function DeviceCreate() {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  const selfId = useClientState((s) => s.id);
  const defaults = { ownerSubId: 0, ...(level === Level.Enterprise && selfId ? { ownerId: selfId } : {}) };
  return (
    <>
      <PageHeading titleKey="devices.form.createTitle" />
      <Create title={translate('devices.form.createTitle')} redirect="list" mutationOptions={{ onError: () => undefined }}>
        <DeviceForm mode="create" defaults={defaults} />
      </Create>
    </>
  );
}

/** Edit a device (pessimistic: the server checks uniqueness and ownership first); read-only for sub-users. */
export function DeviceEdit() {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  const titleKey = level === Level.SubUser ? 'devices.form.showTitle' : 'devices.form.editTitle';
  return (
    <>
      <PageHeading titleKey={titleKey} />
      <Edit
        title={translate(titleKey)}
        mutationMode="pessimistic"
        redirect="list"
        mutationOptions={{ onError: () => undefined }}
        queryOptions={{ onError: () => undefined }}
      >
        <DeviceForm mode="edit" />
      </Edit>
    </>
  );
}
