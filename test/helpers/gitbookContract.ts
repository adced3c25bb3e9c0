// GitBook's published contract: answers checked against the OpenAPI documents of
// @gitbook/api 0.202.0 (the content-writing operations and the full document model,
// what GitBook's renderer is typed from) and 0.143.2 (operations 0.202 no longer lists,
// such as links and backlinks).
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import { isEmoji } from '../../src/lib/emoji.ts';

type Operation = { operationId?: string; responses: Record<string, { content?: Record<string, { schema: object }> }> };
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
}

const DOCUMENTS = { '0.202.0': 'gitbook-api-0202/spec/openapi.json', '0.143.2': '@gitbook/api/spec/openapi.json' } as const;
export type GitBookVersion = keyof typeof DOCUMENTS;

interface Contract {
  ajv: Ajv;
  operations: Map<string, Operation>;
  validators: Map<string, ValidateFunction>;
}

const contracts = new Map<GitBookVersion, Contract>();

function contractOf(version: GitBookVersion): Contract {
  let contract = contracts.get(version);
  if (contract) return contract;
  const document = createRequire(import.meta.url)(DOCUMENTS[version]) as OpenApiDocument;
  // The document's "Document" (a page's content: markdown, a JSON document, or neither) says
  // "neither" as an object with no properties at all, which no page can be once its id and
  // title are merged in: GitBook's own answers (a revision's pages carry no content) fail it.
  // Read as meant: neither markdown nor document.
  const content = document.components.schemas.Document as { oneOf?: object[] } | undefined;
  if (content?.oneOf?.[2]) content.oneOf[2] = { title: 'Empty', not: { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] } };
  // 3.1 documents are JSON Schema 2020-12; 3.0 ones are draft-07 with OpenAPI's "nullable".
  const openApi30 = document.openapi.startsWith('3.0');
  const ajv = openApi30 ? new Ajv({ strict: false, allErrors: true }) : new Ajv2020({ strict: false, allErrors: true });
  if (openApi30) document.components = nullableWithoutType(document.components);
  addFormats.default(ajv);
  ajv.addFormat('emoji', isEmoji);
  // GitBook's icon names: its icon set's names, lowercase words joined by dashes.
  ajv.addFormat('icon', /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  ajv.addSchema({ $id: 'gitbook', components: document.components });
  const operations = new Map<string, Operation>();
  for (const methods of Object.values(document.paths)) for (const operation of Object.values(methods)) if (operation.operationId) operations.set(operation.operationId, operation);
  contract = { ajv, operations, validators: new Map() };
  contracts.set(version, contract);
  return contract;
}

/** "nullable" beside a $ref or a oneOf (which Ajv reads only beside a type) as "or null". */
function nullableWithoutType<Value>(value: Value): Value {
  if (Array.isArray(value)) return value.map(nullableWithoutType) as Value;
  if (typeof value !== 'object' || value === null) return value;
  const { nullable, ...rest } = value as Record<string, unknown>;
  const inner = Object.fromEntries(Object.entries(rest).map(([key, child]) => [key, nullableWithoutType(child)]));
  if (nullable !== true) return (nullable === undefined ? inner : { ...inner, nullable }) as Value;
  return ('type' in inner ? { ...inner, nullable } : { anyOf: [inner, { type: 'null' }] }) as Value;
}

/** Rewrites the document's local references to the copy of its components registered as "gitbook". */
function anchored(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"gitbook#/components/'));
}

function departures(validate: ValidateFunction): string[] {
  return validate.errors!.map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
}

/** Fails the test, naming each departure, unless `body` is what GitBook's document says `operationId` answers. */
export function expectGitBookAnswer(operationId: string, body: unknown, options: { status?: number; version?: GitBookVersion } = {}): void {
  const { status = 200, version = '0.202.0' } = options;
  const contract = contractOf(version);
  const key = `${operationId} ${status}`;
  let validate = contract.validators.get(key);
  if (!validate) {
    const operation = contract.operations.get(operationId);
    if (!operation) throw new Error(`@gitbook/api ${version} has no operation ${operationId}`);
    const schema = operation.responses[String(status)]?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`@gitbook/api ${version} documents no JSON answer ${status} for ${operationId}`);
    validate = contract.ajv.compile(anchored(schema));
    contract.validators.set(key, validate);
  }
  expect(validate(body) ? [] : departures(validate), `${operationId} answered outside GitBook's contract (${version})`).toEqual([]);
}
