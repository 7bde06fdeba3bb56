import { tableEndpoints, type ResourceEndpoints } from '../data/resourceEndpoints';
import { tableLevels } from '../domain/tableResource';
import { filterDefOf, type ResourceDeclaration, type ResourceDefinition } from './types';
import { EXTENSION_RESOURCES } from './extensions';

/**
 * Every schema-driven resource, discovered: each folder src/resources/<name>/ whose definition.ts
 * exports a ResourceDefinition is registered, with nothing else to edit (docs/extending.md).
 * Resources kept outside src/ come in through ./extensions (empty in the product; the extension
 * test points it at its fixture).
 */
const isDeclaration = (value: unknown): value is ResourceDeclaration =>
  Boolean(
    value &&
    typeof value === 'object' &&
    'name' in value &&
    'menu' in value &&
    ('server' in value || ('endpoints' in value && 'access' in value)),
  );

/** A declaration completed: endpoints, access and the forms' rules from its server part where it leaves them out. */
function complete(declaration: ResourceDeclaration): ResourceDefinition {
  const { server } = declaration;
  if (!server) return declaration as ResourceDefinition;
  const access = {
    list: tableLevels(server, 'list'),
    show: tableLevels(server, 'show'),
    create: tableLevels(server, 'create'),
    edit: tableLevels(server, 'edit'),
    delete: tableLevels(server, 'delete'),
    export: tableLevels(server, 'export'),
  };
  return {
    ...declaration,
    endpoints: declaration.endpoints ?? tableEndpoints(server),
    access: declaration.access ?? access,
    // The form checks what the server checks, with the same messages.
    createSchema: declaration.createSchema ?? server.schema.create,
    editSchema: declaration.editSchema ?? server.schema.update ?? server.schema.create,
  };
}

const discovered = Object.entries(import.meta.glob<Record<string, unknown>>('./*/definition.ts', { eager: true }))
  .sort(([a], [b]) => a.localeCompare(b))
  .flatMap(([, module]) => Object.values(module).filter(isDeclaration));

export const RESOURCES: readonly ResourceDefinition[] = [...discovered, ...EXTENSION_RESOURCES].map(complete);

const names = new Set<string>();
for (const r of RESOURCES) {
  if (names.has(r.name)) throw new Error(`two resources are named ${r.name}`);
  names.add(r.name);
}

/** The words resources bring with them (definition.messages), per language, for react-admin's catalogue. */
export const resourceMessages = (language: 'zh' | 'en'): Record<string, unknown> =>
  Object.fromEntries(RESOURCES.filter((r) => r.messages).map((r) => [r.name, r.messages![language]]));

/** Each resource's endpoints as the dataProvider reads them, with the list's required filters from the definition. */
export const ENDPOINTS: Record<string, ResourceEndpoints> = Object.fromEntries(
  RESOURCES.map((r) => {
    const requires = r.filters
      .map(filterDefOf)
      .filter((f) => f.required)
      .map((f) => f.source);
    return [r.name, requires.length ? { ...r.endpoints, list: { ...r.endpoints.list, requires } } : r.endpoints];
  }),
);
