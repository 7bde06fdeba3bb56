import type { EnterpriseWithSubUsers } from '../../api/devicesApi';
import { useCallQuery } from '../../data/dataHooks';
import type { NameItem } from '../../domain/user';

/**
 * The enterprises the caller may assign devices to, each with its sub-users (admin: all;
 * enterprise: itself; sub-user: none), from users/getEnterpriseUserWithSubUserNameList through
 * dataProvider.call (devices.enterprisesWithSubUsers).
 */
export function useOwnerTree(enabled = true): { owners: EnterpriseWithSubUsers[]; loading: boolean } {
  const { data, isPending } = useCallQuery('devices', 'enterprisesWithSubUsers', enabled ? [] : null, { staleTime: 60_000 });
  return { owners: data ?? [], loading: enabled && isPending };
}

/** The sub-users of one enterprise of the tree. */
export const subUsersOf = (owners: EnterpriseWithSubUsers[], ownerId: unknown): NameItem[] =>
  owners.find((o) => o.id === Number(ownerId))?.children ?? [];
