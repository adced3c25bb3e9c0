// Request validation. Query strings and path parameters arrive as text, so they are
// coerced to the schema's types ("limit=10" is a number); JSON bodies are not, so a
// number sent where a string belongs is a 400 rather than silently accepted.
import type { FastifyInstance } from 'fastify';
import { Ajv, type Options } from 'ajv';
import ajvFormats from 'ajv-formats';

// ajv-formats is CommonJS: under ESM its function arrives as the default's default.
const addFormats = ajvFormats.default;

// discriminator: a batch's change names its operation, so errors come from that operation's schema.
// verbose: an error carries its schema, whose description says what a pattern means.
const shared: Options = { useDefaults: true, removeAdditional: true, allErrors: false, strict: false, discriminator: true, verbose: true };

export function useSplitValidation(app: FastifyInstance): void {
  const textAjv = new Ajv({ ...shared, coerceTypes: 'array' });
  const bodyAjv = new Ajv({ ...shared, coerceTypes: false });
  addFormats(textAjv);
  addFormats(bodyAjv);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema));
}
