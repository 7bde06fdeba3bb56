import PaletteIcon from '@mui/icons-material/Palette';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import type { ResourceDefinition } from '../types';
import { lazyView } from '../lazyView';

/**
 * System > Icon management (levels 2 and 3, docs/requirements.md §3: the enterprise's icons of four fixed file types):
 * one record per file type (id = fileType) with its current picture; the server lists the types it
 * has a picture for (the enterprise's own, else the admins' default), restore = delete that type.
 * The list view is overridden: it always shows the four fixed types (a type with no picture shows
 * the built-in image) as cards, each uploading in place (multipart, no CRUD endpoint: users.uploadPicture).
 */
export const iconsResource: ResourceDefinition = {
  name: 'system/icon',
  access: { list: PAGE_LEVELS.enterpriseSub },
  menu: { group: 'system', order: 30, titleKey: 'menu.icon', icon: PaletteIcon },
  endpoints: {
    list: { path: '/users/getPictureListByUid', paged: false, filters: [] },
    delete: { path: '/users/deleteOneByFileType', method: 'DELETE', params: (id) => ({ fileType: id }) },
    idOf: (r) => r.fileType as number,
  },
  fields: [],
  columns: [{ source: 'fileType' }, { source: 'content', kind: 'image' }],
  filters: [],
  sort: { field: 'fileType', order: 'ASC' },
  recordRepresentation: 'fileType',
  views: {
    list: lazyView(
      () => import('./IconList'),
      (m) => m.IconList,
    ),
  },
};
