/** Picture/icon file types of docs/requirements.md §3. */
export const FileType = { Logo: 1, AntennaOnline: 2, AntennaOffline: 3, AntennaAlarm: 4 } as const;
export type FileType = (typeof FileType)[keyof typeof FileType];
export const FILE_TYPES: readonly FileType[] = [1, 2, 3, 4];
export const isFileType = (value: unknown): value is FileType => FILE_TYPES.includes(Number(value) as FileType);

export type ImageKind = 'png' | 'jpeg';

/** JPG or PNG, told by the first bytes of the content, never by the name. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return null;
}
