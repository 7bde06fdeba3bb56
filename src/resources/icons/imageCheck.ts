import { IMAGE_MAX_BYTES } from '../../domain/constants';

/** Checked before upload (docs/requirements.md §5): JPG or PNG, at most 2 MB. Returns a message key or null. */
export function checkImage(file: Pick<File, 'type' | 'size' | 'name'>): string | null {
  const typeOk = ['image/jpeg', 'image/png'].includes(file.type) || (/\.(jpe?g|png)$/i.test(file.name) && !file.type);
  if (!typeOk) return 'error.uploadType';
  if (file.size > IMAGE_MAX_BYTES) return 'error.uploadSize';
  return null;
}
