import { readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Language } from '../../src/domain/constants';
import { addResourceWords } from '../../src/domain/messages';
import type { TableResource } from '../../src/domain/tableResource';
import { checkTableResource } from '../db/generatedTables';

/**
 * The server resources, discovered the way the console discovers its definitions (docs/extending.md):
 * every src/resources/<name>/definition.ts, and the definitions src/resources/extensions.ts lists.
 * A definition with a `server` part gets its routes and its table; every definition's words are
 * added to the server's messages, so its rules answer in the caller's language. A definition is
 * data: importing one loads its icon, never its views (they come lazily).
 */
export interface DeclaredResource {
  /** The console's resource name (the words are under resources.<name>). */
  name: string;
  resource: TableResource;
}

interface DefinitionLike {
  name: string;
  server?: TableResource;
  messages?: Record<Language, Record<string, unknown>>;
}

const RESOURCES_DIR = fileURLToPath(new URL('../../src/resources/', import.meta.url));

const isDefinition = (value: unknown): value is DefinitionLike =>
  Boolean(value && typeof value === 'object' && 'name' in value && 'menu' in value);

function flatten(value: unknown, prefix: string, out: Record<string, string>): Record<string, string> {
  if (typeof value === 'string') out[prefix] = value;
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) flatten(v, `${prefix}.${k}`, out);
  return out;
}

async function discover(): Promise<DeclaredResource[]> {
  const folders = (await readdir(RESOURCES_DIR, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const files = folders
    .sort()
    .map((folder) => join(RESOURCES_DIR, folder, 'definition.ts'))
    .filter((file) => existsSync(file));
  const modules: Record<string, unknown>[] = await Promise.all(files.map((file) => import(pathToFileURL(file).href)));
  const { EXTENSION_RESOURCES } = await import('../../src/resources/extensions');
  const definitions = [
    ...modules.flatMap((module) => Object.values(module).filter(isDefinition)),
    ...(EXTENSION_RESOURCES as unknown[]).filter(isDefinition),
  ];
  const declared: DeclaredResource[] = [];
  const paths = new Set<string>();
  for (const definition of definitions) {
    for (const lang of ['zh', 'en'] as const)
      if (definition.messages?.[lang]) addResourceWords(lang, flatten(definition.messages[lang], `resources.${definition.name}`, {}));
    if (!definition.server) continue;
    checkTableResource(definition.server);
    if (paths.has(definition.server.path)) throw new Error(`two resources serve ${definition.server.path}`);
    paths.add(definition.server.path);
    declared.push({ name: definition.name, resource: definition.server });
  }
  return declared;
}

let found: Promise<DeclaredResource[]> | undefined;

/** The declared server resources (found once per process). */
export const declaredResources = (): Promise<DeclaredResource[]> => (found ??= discover());
