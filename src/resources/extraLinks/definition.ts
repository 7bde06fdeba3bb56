import { usersApi } from '../../api/usersApi';
import { PAGE_ACCESS } from '../../domain/pageAccess';
import { extraLinkSchema } from '../../domain/userSchemas';
import type { NameItem } from '../../domain/user';
import * as yup from 'yup';
import type { ResourceDefinition } from '../types';

/** Users the caller manages, for the link's owner (enterprises and sub-users it sees). */
async function linkableUsers(): Promise<NameItem[]> {
  const [enterprises, subUsers] = await Promise.all([usersApi.enterpriseNames().catch(() => []), usersApi.subUserNames().catch(() => [])]);
  return [...enterprises, ...subUsers];
}

/** Extra links (levels 1 and 2): one free text per user, written with addEditUserExtraLink. */
export const extraLinksResource: ResourceDefinition = {
  name: 'system/extraLink',
  levels: PAGE_ACCESS['/system/extraLink']!,
  endpoints: {
    list: { path: '/users/getAllUserExtraLink', paged: false, filters: [], matchHere: ['userName'] },
    one: { path: '/users/getUserExtraLink', params: (id) => ({ userId: id }) },
    create: { path: '/users/addEditUserExtraLink', send: 'query', params: (r) => ({ userId: r.userId, content: r.content ?? '' }) },
    update: { path: '/users/addEditUserExtraLink', send: 'query', params: (r) => ({ userId: r.userId ?? r.id, content: r.content ?? '' }) },
    idOf: (r) => r.userId as number,
  },
  fields: [
    { source: 'userId', input: 'options', options: linkableUsers, on: { create: true, edit: true }, disabledOnEdit: true },
    { source: 'content', input: 'textarea', on: { create: true, edit: true } },
  ],
  columns: [
    { source: 'userName', sortable: true },
    { source: 'content' },
    { source: 'updatedAt', kind: 'date', sortable: true },
  ],
  filters: ['userName'],
  createSchema: extraLinkSchema.shape({ userId: yup.number().required('validation.required') }),
  editSchema: extraLinkSchema,
  recordRepresentation: 'userName',
};
