import { Type } from '@sinclair/typebox';
import { ChangelogEntry, GeneratedJson } from '../entries/entry.schemas.js';
import { DateTime, Nullable, StringEnum, Uuid } from '../http/schemas.js';
import { AVAILABLE_VIEWS, ENTRY_VIEWS } from '../projects/public-view.js';

/** The response schemas of the public routes: validation in tests, serialization and the OpenAPI document. */

export const Project = Type.Object({ id: Uuid, name: Type.String(), slug: Type.String() }, { $id: 'Project' });

export const ListMeta = Type.Object({
  limit: Type.Integer(),
  offset: Type.Integer(),
  count: Type.Integer({ description: 'Number of entries in this page.' }),
  total: Type.Integer({ description: 'Addition: number of published entries of the project (of the view listed, with `view`).' }),
  has_more: Type.Boolean({ description: 'Addition: whether entries exist past this page.' }),
  next_cursor: Nullable(Type.String({ description: 'Addition: pass as `cursor` for the next page; null on the last page.' })),
  view: Type.Optional(
    StringEnum(ENTRY_VIEWS, {
      description:
        'Addition, only when `view` was given: the view listed. For `view=default`, the entry view the project shows by default ' +
        '(pass it as `view` for further pages, so that they stay in that view should the default change meanwhile).',
    }),
  ),
  default_view: Type.Optional(
    StringEnum(AVAILABLE_VIEWS, {
      description:
        'Addition, only with `view=default`: the view the public page opens on. `releases` when it opens on release notes ' +
        '(not entries: list them with `GET /v1/changelog/{slug}/releases`, as the widget then does); `view` is then the ' +
        'entry view the project would show otherwise.',
    }),
  ),
});

export const ListResponse = Type.Object({
  project: Type.Ref(Project),
  entries: Type.Array(Type.Ref(ChangelogEntry), {
    description: 'Published entries, newest `published_at` first; ties by `id` descending.',
  }),
  meta: ListMeta,
});

export const EntryResponse = Type.Object({ entry: Type.Ref(ChangelogEntry) });

/*
 * Release notes: an extension outside the API contract (whose entry_type enum stays as it is),
 * documented in /openapi.json with `x-extension: true`.
 */
const EXTENSION = { 'x-extension': true } as const;

export const ReleaseNote = Type.Object(
  {
    id: Uuid,
    project_id: Uuid,
    tag: Nullable(Type.String({ description: 'The release tag; null for the Unreleased note (addressed as `unreleased`).' })),
    package: Nullable(Type.String({ description: "The package of the tag's series (`pkg@1.2.0` → `pkg`); null for the root package." })),
    version: Nullable(Type.String({ description: 'Semantic version of the tag; null for Unreleased.' })),
    prerelease: Type.Boolean(),
    previous_tag: Nullable(
      Type.String({
        description:
          'The tag this note counts from: the highest lower version of the same series in its history (for a final release, the ' +
          'previous final release, so the note covers its pre-releases). For Unreleased, the newest root release.',
      }),
    ),
    released_at: Nullable(Type.Unsafe<Date | string>({ type: 'string', format: 'date-time', description: "When the tagged commit was released; null for Unreleased." })),
    title: Type.String(),
    content: Type.String({ description: 'Markdown rendered from `generated_json`, after the `introduction` when the note has one.' }),
    introduction: Nullable(
      Type.String({
        description:
          "An editor's introduction to the release (Markdown), written in the dashboard's release editor; null: none. `content` starts with it. " +
          'Added by the release editor; clients that do not know it can ignore it.',
      }),
    ),
    generated_json: Type.Ref(GeneratedJson),
    team_attribution: Nullable(Type.String()),
    component_tags: Type.Array(Type.String()),
    commit_shas: Type.Array(Type.String(), { description: 'The commits the note lists.' }),
    published_at: DateTime,
    updated_at: DateTime,
  },
  {
    $id: 'ReleaseNote',
    ...EXTENSION,
    description:
      'Extension outside the contract: the changes between a release tag and the previous tag of its series, structured like a rollup ' +
      'entry, or the Unreleased changes after the newest root release.',
  },
);

export const ReleaseListMeta = Type.Object({
  limit: Type.Integer(),
  offset: Type.Integer(),
  count: Type.Integer({ description: 'Number of release notes in this page.' }),
  total: Type.Integer({ description: 'Number of published release notes of the project.' }),
  has_more: Type.Boolean({ description: 'Whether release notes exist past this page.' }),
  next_cursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last page.' })),
});

export const ReleaseListResponse = Type.Object(
  {
    project: Type.Ref(Project),
    releases: Type.Array(Type.Ref(ReleaseNote), {
      description: 'Published release notes, newest `released_at` first (Unreleased, which has none, on top); ties by `id` descending.',
    }),
    meta: ReleaseListMeta,
  },
  EXTENSION,
);

export const ReleaseResponse = Type.Object({ release: Type.Ref(ReleaseNote) }, EXTENSION);

/**
 * A release tag in a URL, percent-encoded (`%40org%2Fpkg%401.2.0` for `@org/pkg@1.2.0`); `unreleased`
 * names the Unreleased note. Control characters (PostgreSQL text cannot hold NUL) and absurd lengths
 * are a 400; anything else that names no published note of the project is a 404.
 */
export const TagParam = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[^\\u0000-\\u001F\\u007F]+$',
  description: 'Release tag, URL-encoded (`pkg%402.0.0`, `%40org%2Fpkg%401.0.0`), or `unreleased` for the Unreleased note.',
});
