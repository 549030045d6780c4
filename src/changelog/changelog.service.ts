import DataLoader from 'dataloader';
import { etagOf } from '../cache/response-cache.js';
import type { Principal } from '../context.js';
import type { Db } from '../db/database.js';
import { notFound } from '../errors.js';
import type { ProjectSummaryRow } from '../projects/projects.repository.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { changelogRepository, type Listed, type PageRequest as RepositoryPageRequest } from './changelog.repository.js';
import { ListMeta, Project } from './changelog.schemas.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { Gate } from './gate.js';
import { commaSeparated, compileSerializer, concatJson, ENTRY_SCHEMAS, jsonPieces, type EntryJson } from './entry-json.js';
import { entryTypeOf, projectDefaultEntryView, projectDefaultView, type AvailableView, type EntryView } from '../projects/public-view.js';
import { ProjectsMeta, ProjectSummary } from './projects.schemas.js';

interface ListMetaValue {
  limit: number;
  offset: number;
  count: number;
  total: number;
  has_more: boolean;
  next_cursor: string | null;
  view?: EntryView;
  default_view?: AvailableView;
}

/** A view of the listing as a client asks for it: one of the page's entry views, or the project's default. */
export type ListView = EntryView | 'default';

/** A response body, serialized (UTF-8), its ETag, and the project it shows. */
export interface Serialized {
  body: Buffer;
  etag: string;
  projectId: string;
}

interface PageQuery {
  limit: number;
  offset: number;
  cursor?: string;
  /** Absent: every published entry, the response exactly as before views existed. */
  view?: ListView;
}

/**
 * A page to read, with its cursor as given (part of what identifies the request) and decoded, and
 * its view resolved (`default` stands for the project's default view, read before).
 */
interface PageRequest extends Omit<PageQuery, 'view'>, Omit<RepositoryPageRequest, 'limit' | 'offset'> {
  view?: EntryView;
  /** For `view=default`: the view the public page opens on (`releases` is not an entry view, so it may differ from `view`). */
  defaultView?: AvailableView;
}

/**
 * Pages further down than this are not read in the same statement as others. That kept cheap reads
 * from waiting for deep offsets, which walked every entry they skipped; since the marks of
 * migrations/0030 a deep page costs what a first page does, and the split only remains as it was.
 */
const SHALLOW_MAX_OFFSET = 1_000;
/** Requests per batched statement. */
const MAX_BATCH = 100;
/**
 * Batches of one kind being read at once; requests arriving meanwhile wait for the next batch (as in
 * a group commit), so a hot page under load is read once per round trip, not once per request.
 */
const BATCHES_IN_FLIGHT = 2;

const serializeProject = compileSerializer<Listed['project']>(Project);
const serializeMeta = compileSerializer<ListMetaValue>(ListMeta);
/** A project of the listing without its entries, serialized: ends in `"changelog_entries":[]}`, where they go. */
const serializeSummary = compileSerializer<ProjectSummaryRow & { changelog_entries: [] }>(ProjectSummary, ENTRY_SCHEMAS);
const serializeProjectsMeta = compileSerializer<{ count: number; entries_limit: number }>(ProjectsMeta);
const NO_ENTRIES = '[]}';

/** A listing of one page: one row past the page says whether there is more, whatever the total says mid-change. */
interface ListedPage extends Listed {
  hasMore: boolean;
}

function toPage(listed: Listed | undefined, limit: number): ListedPage | undefined {
  if (!listed) return undefined;
  return { ...listed, entries: listed.entries.slice(0, limit), hasMore: listed.entries.length > limit };
}

function renderPage(query: PageRequest, { project, total, entries, hasMore }: ListedPage, json: Buffer[]): Buffer {
  const last = entries.at(-1);
  const meta: ListMetaValue = {
    limit: query.limit,
    offset: query.offset,
    count: entries.length,
    total,
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor({ publishedAt: last.sort_key, id: last.id }) : null,
    // Only when asked for: without `view` the body is byte for byte what it was.
    ...(query.view ? { view: query.view } : {}),
    ...(query.defaultView ? { default_view: query.defaultView } : {}),
  };
  return concatJson([`{"project":${serializeProject(project)},"entries":[`, ...commaSeparated(json), `],"meta":${serializeMeta(meta)}}`]);
}

function renderEntry({ entries }: Listed, json: Buffer[]): Buffer {
  if (entries.length === 0) throw notFound('Entry');
  return concatJson(['{"entry":', json[0]!, '}']);
}

const serialized = (body: Buffer, projectId: string): Serialized => ({ body, etag: etagOf(body), projectId });

/**
 * The public read side: published entries only, addressed by project slug.
 *
 * Concurrent requests are read together: the page and entry requests that arrive in the same turn
 * of the event loop become one statement (DataLoader, dispatched on `setImmediate`), and identical
 * ones share one result, serialized and hashed once. Every request still reads the database: a
 * batch is sent only after each of its requests arrived, so none is answered from a read that
 * started before it (no staleness, unlike a cache), and a quiet server sends each request alone.
 */
export function createChangelogService(readDb: Db, entryJson: EntryJson, deps: { projects: Pick<ProjectsService, 'listVisible'> }) {
  /** One statement names the entries to show; their JSON comes by version (see EntryJson.read). */
  async function read<L extends Listed>(list: () => Promise<L | undefined>, render: (listed: L, json: Buffer[]) => Buffer): Promise<Serialized> {
    const read = await entryJson.read(readDb, list);
    if (!read) throw notFound('Changelog');
    return serialized(render(read.listed, read.json), read.listed.project.id);
  }

  // A page is listed with one row past it, which tells whether there is more (see ListedPage).
  /** Each request's page, all in one statement. */
  const listPages = async (requests: PageRequest[]) =>
    (await changelogRepository.pages(readDb, requests.map((r) => ({ ...r, limit: r.limit + 1 })))).map((l, i) => toPage(l, requests[i]!.limit));
  /** One request's page, in a statement of its own. */
  const listPage = async (request: PageRequest) => toPage(await changelogRepository.page(readDb, { ...request, limit: request.limit + 1 }), request.limit);

  const pageAlone = (request: PageRequest) => read(() => listPage(request), (listed, json) => renderPage(request, listed, json));

  const entryAlone = (slug: string, id: string) =>
    read(() => changelogRepository.entry(readDb, slug, id), renderEntry);

  /**
   * A DataLoader that lists the distinct requests of a batch with `listAll` (one statement, for
   * cheap reads; an Error fails its own request only) and reads their entries' JSON together;
   * identical requests get the very same result. A request whose entries changed between the two
   * reads is read again on its own (`alone`, which retries); the others are answered as listed.
   */
  function batched<K, L extends Listed>(
    keyOf: (request: K) => string,
    listAll: (requests: K[]) => Promise<(L | undefined | Error)[]>,
    render: (request: K, listed: L, json: Buffer[]) => Buffer,
    alone: (request: K) => Promise<Serialized>,
  ): DataLoader<K, Serialized> {
    const gate = new Gate(BATCHES_IN_FLIGHT);
    return new DataLoader<K, Serialized, string>(
      (requests) => gate.run(async () => {
        const distinct = new Map<string, K>();
        for (const request of requests) distinct.set(keyOf(request), request);
        const unique = [...distinct.values()];
        const listed = await listAll(unique);
        const entriesOf = (l: L | undefined | Error) => (l && !(l instanceof Error) ? l.entries : []);
        const json = await entryJson.of(readDb, listed.flatMap(entriesOf));
        let jsonOf: (Buffer[] | undefined)[];
        if (json) {
          let at = 0;
          jsonOf = listed.map((l) => json.slice(at, (at += entriesOf(l).length)));
        } else {
          // Something changed between the reads: find which requests it touched (what was just read
          // is held now, so this mostly costs no statement) and read only those again.
          jsonOf = await Promise.all(listed.map((l) => entryJson.of(readDb, entriesOf(l))));
        }
        const results = await Promise.all(
          unique.map(async (request, i): Promise<Serialized | Error> => {
            const one = listed[i];
            if (one instanceof Error) return one;
            if (!one) return notFound('Changelog');
            const own = jsonOf[i];
            try {
              return own ? serialized(render(request, one, own), one.project.id) : await alone(request);
            } catch (error) {
              return error as Error;
            }
          }),
        );
        const byKey = new Map(unique.map((request, i) => [keyOf(request), results[i]!]));
        return requests.map((request) => byKey.get(keyOf(request))!);
      }),
      // No memo across batches (that would be a cache without invalidation). A batch is dispatched
      // once the current I/O phase has delivered every request it is going to, and no sooner than
      // a batch in flight comes back if BATCHES_IN_FLIGHT are; until then, it takes in new requests.
      { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (dispatch) => setImmediate(() => gate.enter(dispatch)) },
    );
  }

  const pageKey = (r: PageRequest) => `${r.slug}\n${r.limit}\n${r.offset}\n${r.cursor ?? ''}\n${r.view ?? ''}\n${r.defaultView ?? ''}`;
  /** Identical deep pages are still read once, but distinct ones each in their own statement, side by side. */
  const listDeepPages = async (requests: PageRequest[]) =>
    (await Promise.allSettled(requests.map(listPage))).map((settled) =>
      settled.status === 'fulfilled' ? settled.value : (settled.reason as Error),
    );
  const pageLoader = (list: (requests: PageRequest[]) => Promise<(ListedPage | undefined | Error)[]>) =>
    batched<PageRequest, ListedPage>(pageKey, list, renderPage, pageAlone);
  // One statement per batch lists pages of one kind: from the start or after a cursor, of every type
  // or of one (see changelogRepository.pages).
  const shallowPages = pageLoader(listPages);
  const pagesAfterCursor = pageLoader(listPages);
  const typedShallowPages = pageLoader(listPages);
  const typedPagesAfterCursor = pageLoader(listPages);
  const deepPages = pageLoader(listDeepPages);

  /**
   * The view a request lists: as asked, or for `default` the project's default among the entry views,
   * with the view its public page opens on (no project: 404, as without a view).
   */
  async function resolveView(slug: string, view: ListView): Promise<{ view: EntryView; defaultView?: AvailableView }> {
    if (view !== 'default') return { view };
    const project = await changelogRepository.findProject(readDb, slug);
    if (!project) throw notFound('Changelog');
    const hasReleases = await changelogRepository.hasTaggedRelease(readDb, project);
    return { view: projectDefaultEntryView(project), defaultView: projectDefaultView(project, hasReleases) };
  }

  type EntryRequest = { slug: string; id: string };
  const entries = batched<EntryRequest, Listed>(
    (r) => `${r.slug}\n${r.id}`,
    (requests) => changelogRepository.entries(readDb, requests),
    (_r, listed, json) => renderEntry(listed, json),
    (r) => entryAlone(r.slug, r.id),
  );

  return {
    /**
     * A page by offset, or after a cursor, serialized as the list route answers it; of one view when
     * `view` is given (the cursor is a position in published order, so it continues any view).
     */
    async pageJson(slug: string, query: PageQuery): Promise<Serialized> {
      const { view: asked, ...position } = query;
      const after = position.cursor !== undefined ? decodeCursor(position.cursor) : undefined;
      const resolved = asked === undefined ? undefined : await resolveView(slug, asked);
      const view = resolved?.view;
      const type = view === undefined ? undefined : entryTypeOf(view);
      const request: PageRequest = {
        slug,
        limit: position.limit,
        offset: position.offset,
        ...(after ? { after, cursor: position.cursor } : {}),
        ...(view ? { view } : {}),
        ...(resolved?.defaultView ? { defaultView: resolved.defaultView } : {}),
        ...(type ? { type } : {}),
      };
      if (request.offset > SHALLOW_MAX_OFFSET) return deepPages.load(request);
      if (type) return (after ? typedPagesAfterCursor : typedShallowPages).load(request);
      return (after ? pagesAfterCursor : shallowPages).load(request);
    },

    /** One published entry, serialized as the entry route answers it. */
    async entryJson(slug: string, id: string): Promise<Serialized> {
      return entries.load({ slug, id });
    },

    /**
     * The project listing (GET /v1/projects), serialized as the route answers it: the projects
     * `principal` may see and which entry versions to show (two statements), then the entries' JSON
     * by version (a third, only for versions not yet serialized). If an entry changed in between, the
     * listing is read again. The body comes in pieces, never copied whole: with 200 entries a
     * project, it can run to tens of megabytes.
     */
    async listVisibleProjectsJson(principal: Principal, entriesLimit: number): Promise<{ body: Buffer[]; projectIds: string[] }> {
      const { listed: visible, json } = (await entryJson.read(readDb, async () => {
        const projects = await deps.projects.listVisible(principal);
        const ids = projects.map((p) => p.id);
        return { projects, ids, entries: await changelogRepository.latestPublishedVersionsPerProject(readDb, ids, entriesLimit) };
      }))!;
      const byProject = new Map<string, Buffer[]>(visible.ids.map((id) => [id, []]));
      visible.entries.forEach((entry, i) => byProject.get(entry.project_id)?.push(json[i]!));
      const pieces: (string | Buffer)[] = ['{"projects":['];
      visible.projects.forEach((project, i) => {
        const summary = serializeSummary({ ...project, changelog_entries: [] });
        pieces.push(`${i === 0 ? '' : ','}${summary.slice(0, -NO_ENTRIES.length)}[`, ...commaSeparated(byProject.get(project.id)!), ']}');
      });
      const meta = serializeProjectsMeta({ count: visible.projects.length, entries_limit: entriesLimit });
      pieces.push(`],"meta":${meta}}`);
      return { body: jsonPieces(pieces), projectIds: visible.ids };
    },
  };
}

export type ChangelogService = ReturnType<typeof createChangelogService>;
