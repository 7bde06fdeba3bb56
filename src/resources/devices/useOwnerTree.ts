import { useQuery } from '@tanstack/react-query';
import { devicesApi, type EnterpriseWithSubUsers } from '../../api/devicesApi';
import type { NameItem } from '../../domain/user';

/**
 * The enterprises the caller may assign devices to, each with its sub-users (admin: all;
 * enterprise: itself; sub-user: none), from users/getEnterpriseUserWithSubUserNameList.
 */
export function useOwnerTree(enabled = true): { owners: EnterpriseWithSubUsers[]; loading: boolean } {
  const { data, isPending } = useQuery({ queryKey: ['deviceOwnerTree'], queryFn: () => devicesApi.enterprisesWithSubUsers(), enabled, staleTime: 60_000 });
  return { owners: data ?? [], loading: enabled && isPending };
}

/** The sub-users of one enterprise of the tree. */
export const subUsersOf = (owners: EnterpriseWithSubUsers[], ownerId: unknown): NameItem[] =>
  owners.find((o) => o.id === Number(ownerId))?.children ?? [];
