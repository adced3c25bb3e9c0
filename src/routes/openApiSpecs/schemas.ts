// Request and response schemas of the OpenAPI spec operations.
import { Type } from '@sinclair/typebox';

export const SpecSlug = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
  description: 'Lowercase letters and digits in words joined by single hyphens',
});

// One object with both fields, not a union: which one was given is checked with a
// message that says so (and a union would let the validator strip fields).
export const SpecSource = Type.Object(
  {
    url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'Where Quire fetches the document' })),
    text: Type.Optional(Type.String({ minLength: 1, description: 'The document itself, YAML or JSON' })),
  },
  { description: 'Exactly one of url or text' },
);

const ProblemSchema = Type.Object({ message: Type.String(), code: Type.Optional(Type.String()) });

export const OpenApiSpecSchema = Type.Object({
  object: Type.Literal('openapi-spec'),
  id: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  slug: Type.String(),
  sourceURL: Type.Optional(Type.String({ format: 'uri' })),
  processingState: Type.Unsafe<'pending' | 'progress' | 'complete'>({ type: 'string', enum: ['pending', 'progress', 'complete'] }),
  visibility: Type.Unsafe<'private' | 'public'>({ type: 'string', enum: ['private', 'public'] }),
  lastVersion: Type.Optional(Type.String({ description: 'Id of the newest version' })),
  lastProcessedAt: Type.Optional(Type.String({ format: 'date-time' })),
  lastProcessErrorCode: Type.Optional(
    Type.Unsafe<'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR'>({ type: 'string', enum: ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] }),
  ),
  lastProcessedErrors: Type.Optional(Type.Array(ProblemSchema, { description: 'What the last processing found wrong' })),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
  urls: Type.Object({ location: Type.String({ format: 'uri' }), app: Type.String({ format: 'uri' }) }),
});

export const OpenApiSpecVersionSchema = Type.Object({
  object: Type.Literal('openapi-spec-version'),
  id: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  url: Type.String({ format: 'uri', description: 'Where the text of this version came from' }),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});

export const OpenApiSpecContentSchema = Type.Object({
  filesystem: Type.Object({}, { additionalProperties: true, description: 'The parsed document' }),
  url: Type.String({ format: 'uri' }),
  urls: Type.Object({ source: Type.String({ format: 'uri' }), public: Type.Union([Type.String({ format: 'uri' }), Type.Null()]) }),
});
