import fc from 'fast-check';

/**
 * Bad requests derived from the OpenAPI document: for each operation, its query and header
 * parameters and its JSON body filled with values a hostile or careless client sends (integers out
 * of PostgreSQL's range, Infinity, NUL and other control characters, wrong types, huge text).
 */
export interface Operation {
  method: string;
  path: string;
  params: { name: string; in: string; schema: JsonSchema }[];
  body?: { type: string; schema: JsonSchema };
}
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
}
export interface BadRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export function operationsOf(doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, byMethod] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(byMethod)) {
      const content = op.requestBody?.content ?? {};
      const type = Object.keys(content)[0];
      ops.push({
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? [])
          .filter((p: any) => p.name !== 'token')
          .map((p: any) => ({ name: p.name, in: p.in, schema: p.schema ?? {} })),
        body: type ? { type, schema: content[type].schema ?? {} } : undefined,
      });
    }
  }
  return ops;
}

const typeOf = (schema: JsonSchema): string =>
  Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'string') : (schema.type ?? 'string');

const control = fc.constantFrom('\u0000', '\u0001', '\u0007', '\u001b', '\u007f', '\u0008');
/** Text that breaks things: control characters inside ordinary text, huge text, odd unicode. */
const badText = fc.oneof(
  fc.tuple(fc.string({ maxLength: 8 }), control, fc.string({ maxLength: 8 })).map(([a, c, b]) => `${a}${c}${b}`),
  fc.constantFrom(
    '2026-02-30',
    '2026-13-01T25:61:00Z',
    '0000-00-00',
    '2026-02-29T00:00:00+99:99',
    '\u0000',
    '%00',
    'a\u0000b',
    '\ud800',
    '\uffff',
    '𝕏'.repeat(300),
    'x'.repeat(70_000),
    "'; DROP TABLE users; --",
    '${7*7}',
    '../../etc/passwd',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
/** Numbers a query string can carry that no PostgreSQL integer column takes. */
const badIntegerText = fc.oneof(
  fc.constantFrom(
    '99999999999999999999',
    '1e308',
    '-1e308',
    'Infinity',
    '-Infinity',
    'NaN',
    '-9999999999',
    '2147483648',
    '-2147483649',
    '9007199254740993',
    '1.5',
    '0x1F',
    '',
    ' ',
    '1 OR 1=1',
    '\u0000',
  ),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc.double().map(String),
);
const badBooleanText = fc.constantFrom('maybe', '2', '-1', '\u0000', 'TRUE ', '');
const badJsonNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, 1e20, -9999999999, 2147483648, -2147483649, 1.5, 0, -1),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const wrongJson = fc.constantFrom<unknown>(null, [], {}, [1, 2], { a: 1 }, true, 'x', '', 1e308, '\u0000');

function badQueryValue(schema: JsonSchema): fc.Arbitrary<string> {
  switch (typeOf(schema)) {
    case 'integer':
    case 'number':
      return badIntegerText;
    case 'boolean':
      return badBooleanText;
    default:
      return badText;
  }
}

function badJsonValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  switch (typeOf(schema)) {
    case 'integer':
    case 'number':
      return fc.oneof(badJsonNumber, badIntegerText, wrongJson);
    case 'boolean':
      return fc.oneof(badBooleanText, wrongJson);
    case 'array':
      return fc.oneof(
        fc.array(schema.items ? badJsonValue(schema.items) : wrongJson, { maxLength: 4 }),
        wrongJson,
        fc.constant(Array.from({ length: 5000 }, (_, i) => i)),
      );
    case 'object':
      return fc.oneof(badBody(schema), wrongJson);
    default:
      return fc.oneof(badText, wrongJson);
  }
}

/** A body where some properties are bad and the rest absent or plausible. */
function badBody(schema: JsonSchema): fc.Arbitrary<unknown> {
  const props = Object.entries(schema.properties ?? {});
  if (props.length === 0) return wrongJson;
  return fc.record(Object.fromEntries(props.map(([k, s]) => [k, fc.oneof(badJsonValue(s), plausible(s))])), { requiredKeys: [] });
}

/** A value of the right type, so that one bad field is not hidden behind another. */
function plausible(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  switch (typeOf(schema)) {
    case 'integer':
      return fc.integer({ min: 1, max: 50 });
    case 'number':
      return fc.double({ min: -90, max: 90, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.constant([]);
    case 'object':
      return fc.constant({});
    default:
      return fc.string({ minLength: 1, maxLength: 12 });
  }
}

/** Bad requests for one operation: each has at least one bad parameter or a bad body. */
export function badRequests(op: Operation, token: string): fc.Arbitrary<BadRequest> {
  const query = op.params.filter((p) => p.in === 'query');
  const headerParams = op.params.filter((p) => p.in === 'header');
  const queryArb = fc.record(
    Object.fromEntries(query.map((p) => [p.name, fc.oneof(badQueryValue(p.schema), plausible(p.schema).map(String))])),
    { requiredKeys: [] },
  );
  const headerArb = fc.record(
    Object.fromEntries(
      headerParams.map((p) => [
        p.name,
        fc.oneof(
          badText.map((t) => t.replace(/[^\x20-\x7e]/g, '?')),
          plausible(p.schema).map(String),
        ),
      ]),
    ),
    { requiredKeys: [] },
  );
  const bodyArb: fc.Arbitrary<string | undefined> = !op.body
    ? fc.constant(undefined)
    : op.body.type.includes('json')
      ? fc.oneof({ weight: 4, arbitrary: badBody(op.body.schema) }, { weight: 1, arbitrary: wrongJson }).map((b) => JSON.stringify(b))
      : fc.oneof(
          fc.constantFrom('name=%00&password=%00', 'a=b', '%%%', ''),
          fc
            .record({ name: badText, password: badText }, { requiredKeys: [] })
            .map((r) => new URLSearchParams(r as Record<string, string>).toString()),
        );
  return fc.tuple(queryArb, headerArb, bodyArb).map(([q, h, payload]) => {
    const search = new URLSearchParams({ ...(q as Record<string, string>), token });
    const headers: Record<string, string> = { ...(h as Record<string, string>) };
    if (payload !== undefined) headers['content-type'] = op.body!.type;
    return { method: op.method, url: `${op.path}?${search}`, headers, payload };
  });
}
