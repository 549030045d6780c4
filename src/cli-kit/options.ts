import { Option, type Command } from 'commander';
import { AppError } from '../errors.js';

// Option values as the command line reads them; a malformed one is the API's invalid_request.

/** `a, b,c` → ['a', 'b', 'c'] (undefined stays undefined: the option was left out). */
export function splitList(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',').map((s) => s.trim()).filter(Boolean);
}

export function parseDate(value: string, option: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new AppError('invalid_request', `${option} must be an ISO 8601 date (got "${value}")`);
  return date;
}

export function parseInteger(value: string, option: string): number {
  if (!/^\d+$/.test(value)) throw new AppError('invalid_request', `${option} must be a whole number (got "${value}")`);
  return Number(value);
}

/**
 * `--owner user:EMAIL|org:SLUG`, the one name of the owner of projects and keys alike. `--context`,
 * its former name on `keys`, still works and is no longer shown in help.
 */
export function ownerOption(cmd: Command, description: string, options: { required?: boolean } = {}): Command {
  const owner = new Option('--owner <owner>', description);
  cmd.addOption(options.required ? owner.makeOptionMandatory() : owner);
  cmd.addOption(new Option('--context <owner>').hideHelp());
  return cmd.on('option:context', (value: string) => cmd.setOptionValueWithSource('owner', value, 'cli'));
}
