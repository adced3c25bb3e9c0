// OpenAPI blocks for readers: an operation, a webhook or a set of schemas from one of
// the organization's OpenAPI specs, as GitBook shows them: the method and path, the
// summary and description, the parameters, the request body and each response, with
// their schemas' properties. Local $refs are followed (never external ones), each
// schema to a bounded depth so that recursive schemas end.
import type { Element, ElementContent, Properties } from 'hast';

type Child = ElementContent;
type Json = Record<string, unknown>;

/** How deep nested object properties are listed. */
const MAX_DEPTH = 4;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function h(tagName: string, properties: Properties = {}, children: Child[] = []): Element {
  return { type: 'element', tagName, properties, children };
}

const t = (value: string): Child => ({ type: 'text', value });
const record = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Renders a description's markdown (the reader's one mapping). */
export type DescribeMarkdown = (markdown: string) => Child[];

export class OpenApiView {
  constructor(
    private readonly document: Json,
    private readonly describe: DescribeMarkdown,
  ) {}

  /** A local reference ("#/components/schemas/Pet") resolved, or the value itself; unresolvable refs are empty. */
  private resolve(value: unknown, seen: Set<string> = new Set()): Json {
    const node = record(value);
    const ref = str(node.$ref);
    if (!ref) return node;
    if (!ref.startsWith('#/') || seen.has(ref) || seen.size > 20) return {};
    let target: unknown = this.document;
    for (const part of ref.slice(2).split('/')) target = record(target)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    return this.resolve(target, new Set([...seen, ref]));
  }

  private typeOf(schema: Json): string {
    const resolved = this.resolve(schema);
    const name = str(schema.$ref)?.split('/').pop();
    if (resolved.type === 'array') return `${this.typeOf(record(resolved.items))}[]`;
    const type = Array.isArray(resolved.type) ? resolved.type.join(' | ') : str(resolved.type);
    const format = str(resolved.format);
    if (name && (resolved.type === 'object' || resolved.properties)) return name;
    for (const combinator of ['oneOf', 'anyOf'] as const) {
      if (Array.isArray(resolved[combinator])) return (resolved[combinator] as unknown[]).map((item) => this.typeOf(record(item))).join(' | ');
    }
    return [type ?? (resolved.properties ? 'object' : 'any'), format && `(${format})`].filter(Boolean).join(' ');
  }

  /** An object schema's properties (allOf merged), each with its type, whether required, its description and nested properties. */
  private properties(schema: Json, depth: number, seen: Set<string> = new Set()): Child[] {
    const ref = str(schema.$ref);
    if (depth > MAX_DEPTH || (ref && seen.has(ref))) return [];
    const within = ref ? new Set([...seen, ref]) : seen;
    let resolved = this.resolve(schema);
    if (resolved.type === 'array') return this.properties(record(resolved.items), depth, within);
    if (Array.isArray(resolved.allOf)) {
      const parts = (resolved.allOf as unknown[]).map((part) => this.resolve(part));
      resolved = { properties: Object.assign({}, ...parts.map((part) => record(part.properties))), required: parts.flatMap((part) => (Array.isArray(part.required) ? part.required : [])) };
    }
    const required = new Set(Array.isArray(resolved.required) ? (resolved.required as string[]) : []);
    const entries = Object.entries(record(resolved.properties));
    if (entries.length === 0) return [];
    return [h('ul', { className: ['openapi-properties'] }, entries.map(([name, value]) => {
      const property = this.resolve(value);
      const description = str(property.description);
      return h('li', {}, [
        h('code', {}, [t(name)]),
        t(' '),
        h('span', { className: ['openapi-type'] }, [t(this.typeOf(record(value)))]),
        ...(required.has(name) ? [t(' '), h('span', { className: ['openapi-required'] }, [t('required')])] : []),
        ...(property.enum && Array.isArray(property.enum) ? [t(` · one of ${(property.enum as unknown[]).map((item) => JSON.stringify(item)).join(', ')}`)] : []),
        ...(description ? this.describe(description) : []),
        ...this.properties(record(value), depth + 1, within),
      ]);
    }))];
  }

  private parameters(parameters: unknown[]): Child[] {
    const rows = parameters.map((value) => this.resolve(value)).filter((parameter) => str(parameter.in) !== 'body' && str(parameter.name));
    if (rows.length === 0) return [];
    return [
      h('p', { className: ['openapi-heading'] }, [t('Parameters')]),
      h('div', { className: ['table'] }, [h('table', {}, [
        h('thead', {}, [h('tr', {}, ['Name', 'In', 'Type', 'Description'].map((title) => h('th', { scope: 'col' }, [t(title)])))]),
        h('tbody', {}, rows.map((parameter) => h('tr', {}, [
          h('td', {}, [h('code', {}, [t(str(parameter.name)!)]), ...(parameter.required === true ? [t(' '), h('span', { className: ['openapi-required'] }, [t('required')])] : [])]),
          h('td', {}, [t(str(parameter.in) ?? '')]),
          h('td', {}, [t(this.typeOf(parameter.schema ? record(parameter.schema) : parameter))]),
          h('td', {}, str(parameter.description) ? this.describe(str(parameter.description)!) : []),
        ]))),
      ])]),
    ];
  }

  /** A body: OpenAPI 3's content by media type, or Swagger 2's schema. */
  private body(title: string, holder: Json, fallbackSchema?: unknown): Child[] {
    const content = record(holder.content);
    const media = Object.entries(content);
    const schema = media.length ? record(record(media[0][1]).schema) : fallbackSchema ? record(fallbackSchema) : undefined;
    const description = str(holder.description);
    return [
      h('p', { className: ['openapi-heading'] }, [t(title), ...(media.length ? [t(' '), h('code', {}, [t(media.map(([type]) => type).join(', '))])] : [])]),
      ...(description ? this.describe(description) : []),
      ...(schema ? [h('p', { className: ['openapi-type'] }, [t(this.typeOf(schema))]), ...this.properties(schema, 0)] : []),
    ];
  }

  private operationBody(operation: Json, pathItem: Json): Child[] {
    const parameters = [...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []), ...(Array.isArray(operation.parameters) ? operation.parameters : [])];
    const swaggerBody = parameters.map((value) => this.resolve(value)).find((parameter) => parameter.in === 'body');
    const requestBody = operation.requestBody ? this.resolve(operation.requestBody) : swaggerBody;
    const responses = Object.entries(record(operation.responses));
    return [
      ...(str(operation.summary) ? [h('p', { className: ['openapi-summary'] }, [h('strong', {}, [t(str(operation.summary)!)])])] : []),
      ...(operation.deprecated === true ? [h('p', { className: ['openapi-deprecated'] }, [t('Deprecated')])] : []),
      ...(str(operation.description) ? this.describe(str(operation.description)!) : []),
      ...this.parameters(parameters),
      ...(requestBody ? this.body('Request body', requestBody, requestBody.schema) : []),
      ...(responses.length
        ? [h('p', { className: ['openapi-heading'] }, [t('Responses')]), h('ul', { className: ['openapi-responses'] }, responses.map(([status, value]) => {
            const response = this.resolve(value);
            return h('li', {}, [h('details', { open: status.startsWith('2') }, [h('summary', {}, [h('code', {}, [t(status)]), t(` ${str(response.description)?.split('\n')[0] ?? ''}`)]), ...this.body('Body', { content: response.content }, response.schema)])]);
          }))]
        : []),
    ];
  }

  private frame(method: string, label: string, children: Child[]): Element {
    return h('section', { className: ['openapi', 'openapi-operation'], ariaLabel: `${method.toUpperCase()} ${label}` }, [
      h('p', { className: ['openapi-endpoint'] }, [h('span', { className: ['openapi-method', `method-${method}`] }, [t(method.toUpperCase())]), t(' '), h('code', {}, [t(label)])]),
      ...children,
    ]);
  }

  /** An operation at a path, or undefined when the spec has none there. */
  operation(path: string, method: string): Element | undefined {
    const pathItem = this.resolve(record(this.document.paths)[path]);
    const verb = method.toLowerCase();
    const operation = METHODS.includes(verb) ? record(pathItem[verb]) : {};
    if (Object.keys(operation).length === 0) return undefined;
    const servers = Array.isArray(this.document.servers) ? this.document.servers : [];
    const server = str(record(servers[0]).url) ?? (str(this.document.host) ? `https://${str(this.document.host)}${str(this.document.basePath) ?? ''}` : '');
    return this.frame(verb, `${server.replace(/\/$/, '')}${path}`, this.operationBody(operation, pathItem));
  }

  /** A webhook (OpenAPI 3.1), or undefined when the spec has none of that name and method. */
  webhook(name: string, method: string): Element | undefined {
    const item = this.resolve(record(this.document.webhooks)[name]);
    const verb = method.toLowerCase();
    const operation = METHODS.includes(verb) ? record(item[verb]) : {};
    if (Object.keys(operation).length === 0) return undefined;
    return this.frame(verb, name, this.operationBody(operation, item));
  }

  /** Named schemas of the spec's components (Swagger 2's definitions), each with its properties. */
  schemas(names: string[], title?: string): Element | undefined {
    const components = record(record(this.document.components).schemas);
    const definitions = record(this.document.definitions);
    const found = names.filter((name) => name in components || name in definitions);
    if (found.length === 0) return undefined;
    return h('section', { className: ['openapi', 'openapi-schemas'], ariaLabel: title ?? 'Schemas' }, [
      ...(title ? [h('p', { className: ['openapi-heading'] }, [t(title)])] : []),
      ...found.map((name) => {
        const schema = record(components[name] ?? definitions[name]);
        return h('details', { open: found.length === 1 }, [
          h('summary', {}, [h('code', {}, [t(name)])]),
          ...(str(schema.description) ? this.describe(str(schema.description)!) : []),
          ...this.properties({ $ref: name in components ? `#/components/schemas/${name}` : `#/definitions/${name}` }, 0),
        ]);
      }),
    ]);
  }
}
