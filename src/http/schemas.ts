import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { SLUG_PATTERN } from '../slug.js';

/**
 * A value of `schema`'s type or null, written as a JSON Schema type array: valid in OpenAPI 3.1,
 * and serialized by fast-json-stringify without the cost of trying each branch of an anyOf.
 */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type as string, 'null'] });
}

/**
 * A string that is one of `values`, as a plain JSON Schema enum (a union of literals renders as anyOf),
 * so that a refusal lists the allowed values.
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** An ISO 8601 date-time on the wire; handlers may hand over Date objects, which serialization formats. */
export const DateTime = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' });
// The pattern matters: the `uuid` format alone also admits a `urn:uuid:` prefix PostgreSQL refuses.
export const Uuid = Type.String({
  format: 'uuid',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
});

export const ErrorDetail = Type.Object(
  {
    in: Type.Optional(Type.String({ description: 'Part of the request: querystring, params, body or headers.' })),
    parameter: Type.Optional(Type.String({ description: 'The offending parameter or body field.' })),
    message: Type.String(),
  },
  { $id: 'ErrorDetail', additionalProperties: true },
);

export const ErrorResponse = Type.Object(
  {
    error: Type.String({ description: 'Human-readable description of the problem.' }),
    code: Type.Optional(
      Type.String({
        description:
          'Machine-readable code (an addition to the contract): invalid_request, unauthorized, not_found, ' +
          'payload_too_large, rate_limited, internal, unavailable, …',
      }),
    ),
    details: Type.Optional(Type.Array(Type.Ref(ErrorDetail))),
  },
  { $id: 'ErrorResponse', description: 'Every error body. 5xx bodies never carry details or internals.' },
);

/** A project slug in a public URL: a malformed one fails validation (400) before any read. */
export const SlugParam = Type.String({
  minLength: 2,
  maxLength: 64,
  pattern: SLUG_PATTERN,
  description: 'Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404.',
});

/** 304 answers to a matching If-None-Match (or If-Modified-Since) carry no body. */
export const NotModified = Type.Null({
  description: 'Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body.',
});

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, Type.Ref(ErrorResponse)]));

export const sharedSchemas: TSchema[] = [ErrorDetail, ErrorResponse];
