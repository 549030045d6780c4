import type { TSchema } from '@sinclair/typebox';
import fastJson from 'fast-json-stringify';
import { LRUCache } from 'lru-cache';
import type { Executor } from '../db/database.js';
import type { EntryRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import { ChangelogEntry, GeneratedJson, HeadlineItem, Section, SectionItem } from '../entries/entry.schemas.js';
import { changelogRepository, type EntryVersion } from './changelog.repository.js';

/** Tries before giving up on a listing whose entries keep changing between its two reads. */
const ATTEMPTS = 5;

/** The schemas a ChangelogEntry refers to, for serializers of anything that contains entries. */
export const ENTRY_SCHEMAS: TSchema[] = [HeadlineItem, SectionItem, Section, GeneratedJson, ChangelogEntry];

/** The serializer of a ChangelogEntry, compiled from the same schema as the routes' responses. */
export const serializeEntry = compileSerializer<EntryRow>(ChangelogEntry, ENTRY_SCHEMAS);

const COMMA = Buffer.from(',');

/** Serialized items with commas between them, to place inside a JSON array. */
export function commaSeparated(items: readonly Buffer[]): Buffer[] {
  return items.flatMap((item, i) => (i === 0 ? [item] : [COMMA, item]));
}

/**
 * One UTF-8 body from JSON text and serialized entries. Bytes are copied once, whereas joining the
 * entries as strings would walk each serializer's rope of concatenations again on every response,
 * and the result would be encoded again for the socket and for the ETag.
 */
export function concatJson(pieces: readonly (string | Buffer)[]): Buffer {
  return Buffer.concat(jsonPieces(pieces));
}

/** The pieces as UTF-8 bytes, for a body too large to copy whole once more (see cached-reply.ts). */
export function jsonPieces(pieces: readonly (string | Buffer)[]): Buffer[] {
  return pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece));
}

/** A fast-json-stringify serializer for a TypeBox schema and the schemas it refers to by $id. */
export function compileSerializer<T>(schema: TSchema, refs: TSchema[] = []): (value: T) => string {
  return fastJson(schema as unknown as fastJson.Schema, {
    schema: Object.fromEntries(refs.map((ref) => [ref.$id!, ref as unknown as fastJson.Schema])),
  }) as (value: T) => string;
}

/**
 * The UTF-8 bytes of `text` in memory of their own. Buffer.from places short strings in a shared 8 kB
 * pool, and one long-lived slice keeps its whole pool alive: held in a cache, a 1 kB entry would cost 8 kB.
 */
function ownBuffer(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/**
 * Serialized published entries (UTF-8), reused by row version. A version number belongs to one stored
 * version of one row and is never reused (migration 0012), so a stored string is right for as long
 * as anyone asks for that version: nothing to invalidate, and every request still reads from the
 * database which entries, in which versions, to show. Parsing a row and serializing it again
 * dominated uncached reads; this does it once per version.
 */
export class EntryJson {
  readonly #byVersion: LRUCache<string, Buffer>;

  constructor(maxBytes: number) {
    // Beyond its bytes, each entry costs its key, a Buffer and an ArrayBuffer of its own: about 200 bytes.
    this.#byVersion = new LRUCache<string, Buffer>({ maxSize: maxBytes, sizeCalculation: (json, key) => json.length + key.length + 200 });
  }

  /**
   * Lists (`list`: which entries, in which versions), then takes the JSON of what was listed; lists
   * again if an entry changed or left in between, so a response never mixes states nor shows an
   * entry that has just left. Undefined when `list` finds nothing to list from.
   */
  async read<L extends { entries: readonly EntryVersion[] }>(
    db: Executor,
    list: () => Promise<L | undefined>,
  ): Promise<{ listed: L; json: Buffer[] } | undefined> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const listed = await list();
      if (!listed) return undefined;
      const json = await this.of(db, listed.entries);
      if (json) return { listed, json };
    }
    throw new AppError('unavailable', 'The entries are changing too fast to read; retry');
  }

  /**
   * The JSON of each listed entry, in order; read from the database for versions not held. Undefined
   * when an entry has changed or left since it was listed: the caller lists again.
   */
  async of(db: Executor, wanted: readonly EntryVersion[]): Promise<Buffer[] | undefined> {
    const out: Buffer[] = new Array<Buffer>(wanted.length);
    const missing: number[] = [];
    for (let i = 0; i < wanted.length; i++) {
      const json = this.#byVersion.get(wanted[i]!.version);
      if (json === undefined) missing.push(i);
      else out[i] = json;
    }
    if (missing.length === 0) return out;
    const rows = await changelogRepository.publishedRowsByIds(
      db,
      missing.map((i) => wanted[i]!.id),
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    let complete = true;
    for (const i of missing) {
      const row = byId.get(wanted[i]!.id);
      if (!row) {
        complete = false;
        continue;
      }
      const json = ownBuffer(serializeEntry(row));
      // Whatever version was read is worth keeping, even if it is newer than the one listed.
      this.#byVersion.set(row.version, json);
      if (row.version === wanted[i]!.version) out[i] = json;
      else complete = false;
    }
    return complete ? out : undefined;
  }
}
