// Reading an OpenAPI document: YAML or JSON text, validated as OpenAPI 3.0, 3.1 or
// Swagger 2.0 by @apidevtools/swagger-parser. External $refs are left as written:
// following them would read files of the server or fetch URLs around the safety rules.
import { parse as parseYaml, YAMLParseError } from 'yaml';

export interface OpenApiProblem {
  message: string;
  code?: string;
}

export type OpenApiReading =
  | { ok: true; document: Record<string, unknown>; version: string }
  | { ok: false; problems: OpenApiProblem[] };

/** At most this many problems are kept: enough to act on, never a flood. */
const MAX_PROBLEMS = 50;

interface SchemaError {
  instancePath?: string;
  message?: string;
}

/** An OpenAPI document's text as data: YAML 1.2, which reads JSON too; duplicate keys and other ambiguities throw. */
export function parseOpenApiText(text: string): unknown {
  return parseYaml(text, { maxAliasCount: 1000 });
}

export async function readOpenApiDocument(text: string): Promise<OpenApiReading> {
  let parsed: unknown;
  try {
    parsed = parseOpenApiText(text);
  } catch (error) {
    const message = error instanceof YAMLParseError ? error.message.split('\n')[0].replace(/:\s*$/, '') : String(error);
    return { ok: false, problems: [{ message: `Not valid YAML or JSON: ${message}`, code: 'SYNTAX' }] };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, problems: [{ message: 'The document must be an object with an "openapi" or "swagger" field', code: 'NOT_OPENAPI' }] };
  }
  const record = parsed as Record<string, unknown>;
  const declared = record.openapi ?? record.swagger;
  if (typeof declared !== 'string') {
    return { ok: false, problems: [{ message: 'The document has no "openapi" (3.x) or "swagger" (2.0) version field', code: 'NOT_OPENAPI' }] };
  }
  try {
    // The validator dereferences what it is given: it works on a copy.
    // Loaded when a spec is first checked, not at every start.
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    await SwaggerParser.validate(structuredClone(record) as never, { resolve: { external: false } });
  } catch (error) {
    const details = (error as { details?: SchemaError[] }).details;
    const problems = Array.isArray(details) && details.length > 0
      ? details.map((detail) => ({ message: `${detail.instancePath || '/'}: ${detail.message ?? 'is invalid'}`, code: 'SCHEMA' }))
      : [{ message: (error as Error).message.split('\n')[0], code: 'SPEC' }];
    return { ok: false, problems: problems.slice(0, MAX_PROBLEMS) };
  }
  return { ok: true, document: record, version: declared };
}
