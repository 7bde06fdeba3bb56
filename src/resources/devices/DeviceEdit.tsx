import { Create, Edit, useNotify, useTranslate } from 'react-admin';
import { errorCode } from '../../data/dataProvider';
import { ErrorCode } from '../../domain/errorCodes';
import { Level } from '../../domain/levels';
import { useClientState } from '../../state/useClientState';
import { DeviceForm } from './DeviceForm';
import { PageHeading } from '../generic/PageHeading';

/**
 * A refused save: field errors and duplicates are under their fields (the request is quiet about
 * codes 1 and 9, definition.ts); such a refusal naming no field is told here, once; any other is
 * the error catalogue's.
 */
function useSaveError() {
  const notify = useNotify();
  return (error: unknown) => {
    const code = errorCode(error);
    const fields = (error as { body?: { errors?: Record<string, string> } } | null)?.body?.errors;
    if ((code === ErrorCode.Validation || code === ErrorCode.Duplicate) && !fields)
      notify((error as Error).message, { type: 'error', messageArgs: { _: (error as Error).message } });
  };
}

/** New device: an enterprise's device is its own; errors are shown once (under the fields, or as one message). */
export function DeviceCreate() {
  const translate = useTranslate();
  const onError = useSaveError();
  const level = useClientState((s) => s.permissionLevel);
  const selfId = useClientState((s) => s.id);
  const defaults = { ownerSubId: 0, ...(level === Level.Enterprise && selfId ? { ownerId: selfId } : {}) };
  return (
    <>
      <PageHeading titleKey="devices.form.createTitle" />
      <Create title={translate('devices.form.createTitle')} redirect="list" mutationOptions={{ onError }}>
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
  const onError = useSaveError();
  return (
    <>
      <PageHeading titleKey={titleKey} />
      <Edit
        title={translate(titleKey)}
        mutationMode="pessimistic"
        redirect="list"
        mutationOptions={{ onError }}
        queryOptions={{ onError: () => undefined }}
      >
        <DeviceForm mode="edit" />
      </Edit>
    </>
  );
}
