import { imageSize } from 'image-size';
import { ErrorCode } from '../../src/domain/errorCodes';
import { IMAGE_MAX_DIMENSION } from '../../src/domain/constants';
import { sniffImage, type ImageKind } from '../../src/domain/pictures';
import { BizError } from './envelope';

/**
 * The rules every uploaded image passes (docs/requirements.md §5: JPG or PNG, at most 2 MB, checked by the caller's
 * multipart limit), all by content, never by the file name:
 * 1. the first bytes say JPG or PNG (else "Only JPG or PNG images can be uploaded");
 * 2. a declared part type is JPG or PNG (or says nothing); a JPG named .png is still a JPG the
 *    user may upload, so the two are not held against each other;
 * 3. the header decodes (image-size) to the same type, with width and height from 1 to
 *    IMAGE_MAX_DIMENSION;
 * 4. the file is one whole image: PNG chunks walked to IEND, JPEG segments and scan data walked to
 *    EOI, and nothing but zero padding after it (a PNG signature followed by an HTML page, or a
 *    picture with a script appended, is refused).
 * All refusals are code 8.
 */
export interface CheckedImage {
  kind: ImageKind;
  mime: `image/${ImageKind}`;
  width: number;
  height: number;
}

const refuse = (key: string, vars: Record<string, string | number> = {}) => new BizError(ErrorCode.UploadRejected, key, null, vars);

/** Declared types we tolerate without a check (what clients send when they do not know). */
const NEUTRAL_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
const DECLARED_KIND: Record<string, ImageKind> = {
  'image/png': 'png',
  'image/x-png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
};

export function checkImage(bytes: Uint8Array, declaredType?: string): CheckedImage {
  const kind = sniffImage(bytes);
  if (!kind) throw refuse('error.uploadType');
  const declared = (declaredType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!NEUTRAL_TYPES.has(declared) && !DECLARED_KIND[declared]) throw refuse('error.imageDeclaredType', { declared });

  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    throw refuse('error.imageUnreadable');
  }
  if (size.type !== (kind === 'png' ? 'png' : 'jpg')) throw refuse('error.imageUnreadable');
  const { width = 0, height = 0 } = size;
  if (!(width >= 1 && height >= 1 && width <= IMAGE_MAX_DIMENSION && height <= IMAGE_MAX_DIMENSION)) {
    throw refuse('error.imageDimensions', { max: IMAGE_MAX_DIMENSION });
  }

  const end = kind === 'png' ? pngEnd(bytes) : jpegEnd(bytes);
  if (end === null) throw refuse('error.imageUnreadable');
  for (let i = end; i < bytes.length; i += 1) if (bytes[i] !== 0) throw refuse('error.imageTrailing');
  return { kind, mime: `image/${kind}`, width, height };
}

const u16 = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u32 = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;

/** Offset just after the IEND chunk, or null when the chunk chain is broken or has no IEND. */
function pngEnd(b: Uint8Array): number | null {
  let i = 8;
  while (i + 12 <= b.length) {
    const length = u32(b, i);
    const type = String.fromCharCode(b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!);
    const next = i + 12 + length;
    if (!/^[A-Za-z]{4}$/.test(type) || next > b.length) return null;
    if (type === 'IEND') return next;
    i = next;
  }
  return null;
}

/** Offset just after the EOI marker, or null when the segments or the scan data are broken. */
function jpegEnd(b: Uint8Array): number | null {
  let i = 2;
  while (i + 1 < b.length) {
    if (b[i] !== 0xff) return null;
    while (b[i + 1] === 0xff && i + 2 < b.length) i += 1; // fill bytes
    const marker = b[i + 1]!;
    i += 2;
    if (marker === 0xd9) return i;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (i + 2 > b.length) return null;
    const length = u16(b, i);
    if (length < 2 || i + length > b.length) return null;
    i += length;
    if (marker === 0xda) {
      // Entropy-coded data: runs until a marker other than a stuffed 0xFF00 or a restart marker.
      while (i + 1 < b.length && !(b[i] === 0xff && b[i + 1] !== 0x00 && !(b[i + 1]! >= 0xd0 && b[i + 1]! <= 0xd7))) i += 1;
    }
  }
  return null;
}
