import { Type } from '@sinclair/typebox';
import { ChangelogEntry } from '../entries/entry.schemas.js';
import { Nullable, Uuid } from '../http/schemas.js';

/** The response schemas of the public routes: validation in tests, serialization and the OpenAPI document. */

export const Project = Type.Object({ id: Uuid, name: Type.String(), slug: Type.String() }, { $id: 'Project' });

export const ListMeta = Type.Object({
  limit: Type.Integer(),
  offset: Type.Integer(),
  count: Type.Integer({ description: 'Number of entries in this page.' }),
  total: Type.Integer({ description: 'Addition: number of published entries of the project.' }),
  has_more: Type.Boolean({ description: 'Addition: whether entries exist past this page.' }),
  next_cursor: Nullable(Type.String({ description: 'Addition: pass as `cursor` for the next page; null on the last page.' })),
});

export const ListResponse = Type.Object({
  project: Type.Ref(Project),
  entries: Type.Array(Type.Ref(ChangelogEntry), {
    description: 'Published entries, newest `published_at` first; ties by `id` descending.',
  }),
  meta: ListMeta,
});

export const EntryResponse = Type.Object({ entry: Type.Ref(ChangelogEntry) });
