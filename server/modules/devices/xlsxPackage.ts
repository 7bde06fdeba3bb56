import { posix } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { SaxesParser, type SaxesTag } from 'saxes';

/**
 * An .xlsx package opened under limits (the zip half of importSheetReader.ts): the central
 * directory is checked first (number of parts, each part's declared unpacked size, their total),
 * then a part is inflated only when asked (yauzl refuses a part whose inflated bytes exceed its
 * declared size, and we count them too) and fed to a SAX parser as it arrives (saxes: no DTD, no
 * entity expansion).
 */

export interface SheetLimits {
  maxZipEntries: number;
  maxEntryBytes: number;
  maxUnzippedBytes: number;
  maxRows: number;
  maxColumns: number;
  maxCellChars: number;
  maxTextChars: number;
}

export type SheetLimit = 'zipEntries' | 'entryBytes' | 'unzippedBytes' | 'declaredSize' | 'rows' | 'columns' | 'cellChars' | 'textChars';

/** A limit was crossed; vars name it for the message (max, cell, part name). */
export class SheetLimitError extends Error {
  constructor(
    readonly limit: SheetLimit,
    readonly vars: Record<string, string | number> = {},
  ) {
    super(`sheet limit crossed: ${limit}`);
  }
}

/** Not a readable workbook (broken zip, bad XML, DTD, encrypted part, missing sheet part). */
export class SheetUnreadableError extends Error {}

export const localName = (name: string) => name.slice(name.indexOf(':') + 1);

function resolveTarget(fromPart: string, target: string): string {
  const path = target.startsWith('/') ? target.slice(1) : posix.join(posix.dirname(fromPart), target);
  const normal = posix.normalize(path);
  if (normal.startsWith('..')) throw new SheetUnreadableError(`bad target ${target}`);
  return normal;
}

const relsOf = (part: string) => posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);

type Handlers = {
  open?: (name: string, attributes: Record<string, string>) => void;
  close?: (name: string) => void;
  text?: (text: string) => void;
};

export class Package {
  private readonly entries = new Map<string, Entry>();

  private constructor(
    private readonly zip: ZipFile,
    private readonly limits: SheetLimits,
  ) {}

  static async open(bytes: Buffer, limits: SheetLimits): Promise<Package> {
    const zip = await yauzl
      .fromBufferPromise(bytes, { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true })
      .catch((e: Error) => {
        throw new SheetUnreadableError(e.message);
      });
    if (zip.entryCount > limits.maxZipEntries) throw new SheetLimitError('zipEntries', { max: limits.maxZipEntries });
    const pkg = new Package(zip, limits);
    let total = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        if (entry.uncompressedSize > limits.maxEntryBytes)
          throw new SheetLimitError('entryBytes', { name: entry.fileName, max: limits.maxEntryBytes });
        total += entry.uncompressedSize;
        if (total > limits.maxUnzippedBytes) throw new SheetLimitError('unzippedBytes', { max: limits.maxUnzippedBytes });
        pkg.entries.set(entry.fileName, entry);
      }
    } catch (error) {
      zip.close();
      if (error instanceof SheetLimitError) throw error;
      throw new SheetUnreadableError((error as Error).message);
    }
    return pkg;
  }

  has(name: string) {
    return this.entries.has(name);
  }

  close() {
    this.zip.close();
  }

  /** Inflates one part and feeds it to a SAX parser as it comes; a handler may throw to stop. */
  async parse(name: string, handlers: Handlers): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) throw new SheetUnreadableError(`missing ${name}`);
    if (entry.isEncrypted() || !entry.canDecodeFileData()) throw new SheetUnreadableError(`cannot decode ${name}`);
    const parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
    parser.on('doctype', () => {
      throw new SheetUnreadableError('DTD in workbook XML');
    });
    if (handlers.open) {
      const open = handlers.open;
      parser.on('opentag', (tag: SaxesTag) => open(localName(tag.name), tag.attributes as Record<string, string>));
    }
    if (handlers.close) {
      const close = handlers.close;
      parser.on('closetag', (tag: SaxesTag) => close(localName(tag.name)));
    }
    if (handlers.text) {
      parser.on('text', handlers.text);
      parser.on('cdata', handlers.text);
    }
    let stream: Readable | undefined;
    try {
      stream = await this.zip.openReadStreamPromise(entry);
      const decoder = new StringDecoder('utf8');
      let inflated = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        inflated += chunk.length;
        if (inflated > this.limits.maxEntryBytes) throw new SheetLimitError('entryBytes', { name, max: this.limits.maxEntryBytes });
        parser.write(decoder.write(chunk));
      }
      parser.write(decoder.end());
      parser.close();
    } catch (error) {
      if (error instanceof SheetLimitError || error instanceof SheetUnreadableError) throw error;
      // yauzl stops a part that inflates to more (or less) than its declared size: a forged zip.
      if (/bytes in the stream/.test((error as Error).message)) throw new SheetLimitError('declaredSize', { name });
      throw new SheetUnreadableError((error as Error).message);
    } finally {
      stream?.destroy();
    }
  }

  /** A .rels part as id -> { type, target } (targets resolved against the part it describes). */
  async relationships(part: string): Promise<Map<string, { type: string; target: string }>> {
    const rels = new Map<string, { type: string; target: string }>();
    const file = relsOf(part);
    if (!this.has(file)) return rels;
    await this.parse(file, {
      open: (name, a) => {
        if (name === 'Relationship' && a.Id && a.Target && a.TargetMode !== 'External')
          rels.set(a.Id, { type: a.Type ?? '', target: resolveTarget(part, a.Target) });
      },
    });
    return rels;
  }
}

export const relOfType = (rels: Map<string, { type: string; target: string }>, type: string) =>
  [...rels.values()].find((r) => r.type.endsWith(`/${type}`))?.target;

/** Attribute by local name (r:id, or any prefix bound to the relationships namespace). */
export const relId = (attributes: Record<string, string>) =>
  Object.entries(attributes).find(([k]) => k.includes(':') && localName(k) === 'id')?.[1];

/**
 * Only the zip's central directory: parts, declared sizes, their total. Cheap (nothing is
 * inflated), so the server runs it on the event loop before handing a file to a reading thread:
 * an honest bomb is refused in a millisecond.
 */
export async function checkZipDirectory(bytes: Buffer, limits: SheetLimits): Promise<void> {
  (await Package.open(bytes, limits)).close();
}
