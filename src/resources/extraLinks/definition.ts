import LinkIcon from '@mui/icons-material/Link';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { extraLinkSchema } from '../../domain/userSchemas';
import * as yup from 'yup';
import type { ResourceDefinition } from '../types';

/** Extra links (levels 1 and 2): one free text per user, written with addEditUserExtraLink. */
export const extraLinksResource: ResourceDefinition = {
  name: 'system/extraLink',
  access: { list: PAGE_LEVELS.adminEnterprise },
  menu: { group: 'system', order: 40, titleKey: 'menu.extraLink', icon: LinkIcon },
  endpoints: {
    list: { path: '/users/getAllUserExtraLink', paged: false, filters: [], matchHere: ['userName'] },
    one: { path: '/users/getUserExtraLink', params: (id) => ({ userId: id }) },
    create: { path: '/users/addEditUserExtraLink', send: 'query', params: (r) => ({ userId: r.userId, content: r.content ?? '' }) },
    update: { path: '/users/addEditUserExtraLink', send: 'query', params: (r) => ({ userId: r.userId ?? r.id, content: r.content ?? '' }) },
    idOf: (r) => r.userId as number,
  },
  fields: [
    {
      source: 'userId',
      kind: 'reference',
      reference: { resource: 'system/user', optionText: 'name', searchField: 'name' },
      on: { create: true, edit: true },
      disabledOnEdit: true,
    },
    { source: 'content', kind: 'textarea', on: { create: true, edit: true } },
  ],
  columns: [{ source: 'userName', sortable: true }, { source: 'content' }, { source: 'updatedAt', kind: 'datetime', sortable: true }],
  filters: ['userName'],
  createSchema: extraLinkSchema.shape({ userId: yup.number().required('validation.required') }),
  editSchema: extraLinkSchema,
  recordRepresentation: 'userName',
};
