import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import { type ErrorDetail } from '../errors.js';
import { validationDetails } from './errors.js';

// CommonJS packages seen through NodeNext: the constructor is the default export's default.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

/**
 * Compiles a schema (with the shared schemas it refers to) into a check that returns the same
 * error details the HTTP layer produces, so CLI input and HTTP input fail the same way.
 */
export function compileValidator<T>(schema: TSchema, references: TSchema[] = []) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  for (const reference of references) ajv.addSchema(reference);
  const validate = ajv.compile<T>(schema);
  return (value: unknown): { ok: true; value: T } | { ok: false; details: ErrorDetail[] } =>
    validate(value) ? { ok: true, value } : { ok: false, details: validationDetails('body', validate.errors ?? []) };
}
