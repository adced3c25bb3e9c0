// Request validation and response serialization. Query strings and path parameters
// arrive as text, so they are coerced to the schema's types ("limit=10" is a number);
// JSON bodies are not, so a number sent where a string belongs is a 400 rather than
// silently accepted. Both are compiled on a route's first use, not at start: compiling
// every route's schemas took 0.4 s before the server could listen.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import ajvFormats from 'ajv-formats';
import { isEmoji } from '../lib/emoji.ts';
import { isPageSlug } from '../content/changes.ts';

// ajv-formats is CommonJS: under ESM its function arrives as the default's default.
const addFormats = ajvFormats.default;

// discriminator: a batch's change names its operation, so errors come from that operation's schema.
// verbose: an error carries its schema, whose description says what a pattern means.
const shared: Options = { useDefaults: true, removeAdditional: true, allErrors: false, strict: false, discriminator: true, verbose: true };

export function useSplitValidation(app: FastifyInstance): void {
  const textAjv = new Ajv({ ...shared, coerceTypes: 'array' });
  const bodyAjv = new Ajv({ ...shared, coerceTypes: false });
  for (const ajv of [textAjv, bodyAjv]) {
    addFormats(ajv);
    ajv.addFormat('emoji', isEmoji);
    ajv.addFormat('page-slug', isPageSlug);
  }
  app.setValidatorCompiler(({ schema, httpPart }) => {
    let validate: ValidateFunction | undefined;
    // Fastify reads a failed validation's errors from the function it was given.
    const lazy = (data: unknown) => {
      validate ??= (httpPart === 'body' ? bodyAjv : textAjv).compile(schema);
      const valid = validate(data);
      lazy.errors = validate.errors;
      return valid;
    };
    lazy.errors = undefined as ValidateFunction['errors'];
    return lazy;
  });
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's own response serializers (fast-json-stringify), each compiled when its route first answers. */
const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => (serialize ??= compile(route))(data);
  };
};

export const schemaController: FastifyServerOptions['schemaController'] = { compilersFactory: { buildSerializer: lazySerializers } };
