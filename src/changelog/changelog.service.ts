import type { Db } from '../db/database.js';
import { notFound } from '../http/errors.js';
import { changelogRepository, type ListedEntry, type PublicProject } from './changelog.repository.js';
import { ListMeta, Project } from './changelog.schemas.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { compileSerializer, type EntryJson } from '../entries/entry-json.js';

interface ListMetaValue {
  limit: number;
  offset: number;
  count: number;
  total: number;
  has_more: boolean;
  next_cursor: string | null;
}

/** A response body, serialized, and the project it shows. */
export interface Serialized {
  body: string;
  projectId: string;
}

const serializeProject = compileSerializer<Pick<PublicProject, 'id' | 'name' | 'slug'>>(Project);
const serializeMeta = compileSerializer<ListMetaValue>(ListMeta);

/** The public read side: published entries only, addressed by project slug. */
export function createChangelogService(readDb: Db, entryJson: EntryJson) {
  /** One statement names the entries to show; their JSON comes by version (see EntryJson.read). */
  async function read<L extends { project: PublicProject; entries: ListedEntry[] }>(
    list: () => Promise<L | undefined>,
    render: (listed: L, json: string[]) => string,
  ): Promise<Serialized> {
    const read = await entryJson.read(readDb, list);
    if (!read) throw notFound('Changelog');
    return { body: render(read.listed, read.json), projectId: read.listed.project.id };
  }


  return {
    /** A page by offset, or after a cursor, serialized as the list route answers it. */
    async pageJson(slug: string, query: { limit: number; offset: number; cursor?: string }): Promise<Serialized> {
      const after = query.cursor !== undefined ? decodeCursor(query.cursor) : undefined;
      return read(
        async () => {
          // One row past the page tells whether there is more, whatever the total says mid-change.
          const page = { limit: query.limit + 1, offset: query.offset, ...(after ? { after } : {}) };
          const listed = await changelogRepository.page(readDb, slug, page);
          if (!listed) return undefined;
          return { ...listed, entries: listed.entries.slice(0, query.limit), hasMore: listed.entries.length > query.limit };
        },
        ({ project, entries, hasMore }, json) => {
          const last = entries.at(-1);
          const meta = {
            limit: query.limit,
            offset: query.offset,
            count: entries.length,
            total: project.published_entry_count,
            has_more: hasMore,
            next_cursor: hasMore && last ? encodeCursor({ publishedAt: last.sort_key, id: last.id }) : null,
          };
          return `{"project":${serializeProject(project)},"entries":[${json.join(',')}],"meta":${serializeMeta(meta)}}`;
        },
      );
    },

    /** One published entry, serialized as the entry route answers it. */
    async entryJson(slug: string, id: string): Promise<Serialized> {
      return read(
        () => changelogRepository.entry(readDb, slug, id),
        ({ entries }, json) => {
          if (entries.length === 0) throw notFound('Entry');
          return `{"entry":${json[0]}}`;
        },
      );
    },
  };
}
