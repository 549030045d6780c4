import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum, Uuid } from '../http/schemas.js';
import { ENTRY_STATUSES, ENTRY_TYPES } from '../entries/entry-kinds.js';
import { REVIEW_PAGE_MAX } from '../entries/review-filter.js';

/**
 * The automation routes' schemas (validation, serialization and the OpenAPI document): an extension
 * outside the API contract, marked `x-extension` like the release notes.
 */
const EXTENSION = { 'x-extension': true } as const;

const ProjectRef = Type.Object({ id: Uuid, slug: Type.String() });

export const PageQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: REVIEW_PAGE_MAX, default: 50, description: `Page size (1 to ${REVIEW_PAGE_MAX}), in decimal digits.` }),
  ),
  after: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'Continue after the page that returned this `next`.' })),
});

const ContentVersion = Type.String({
  description:
    'What publishing it would make public, as of this answer. Send it back as `?content_version=` with the publish to publish only ' +
    'that: if new commits or an editor changed it since, the publish is refused (409) and nothing changes.',
});

/** A publish's optional condition: the `content_version` CI looked at. */
export const PublishQuery = Type.Object(
  {
    content_version: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9.]+$', description: 'From the pending list: publish only if the content is still that.' }),
    ),
  },
  { additionalProperties: false },
);

const PendingEntry = Type.Object({
  id: Uuid,
  entry_type: StringEnum(ENTRY_TYPES),
  status: StringEnum(ENTRY_STATUSES, { description: '`draft`, or `published` with a pending revision.' }),
  title: Nullable(Type.String()),
  version_label: Nullable(Type.String()),
  date: DateTime,
  published_at: Nullable(DateTime),
  updated_at: DateTime,
  edited: Type.Boolean({ description: 'A person edited its text.' }),
  pending_revision: Type.Boolean({ description: 'Published, with new generated content waiting: publishing it makes that content public.' }),
  content_version: ContentVersion,
});

export const PendingEntriesResponse = Type.Object(
  {
    project: ProjectRef,
    entries: Type.Array(PendingEntry, { description: 'Drafts and published entries with a pending revision, newest first by their own date.' }),
    next: Nullable(Type.String({ description: 'Pass as `after` for the next page; null on the last page.' })),
  },
  { ...EXTENSION, $id: 'PendingEntries' },
);

const PendingRelease = Type.Object({
  tag: Nullable(Type.String({ description: 'Null for the Unreleased note (addressed as `unreleased`).' })),
  version: Nullable(Type.String()),
  prerelease: Type.Boolean(),
  previous_tag: Nullable(Type.String()),
  released_at: Nullable(DateTime),
  title: Type.String(),
  status: StringEnum(ENTRY_STATUSES, { description: '`draft`, or `published` with a pending revision.' }),
  published_at: Nullable(DateTime),
  items: Type.Integer({ description: 'Items of its sections.' }),
  pending_revision: Type.Boolean(),
  edited: Type.Boolean({ description: 'An editor changed what it shows (release editor).' }),
  content_version: ContentVersion,
});

export const PendingReleasesResponse = Type.Object(
  {
    project: ProjectRef,
    releases: Type.Array(PendingRelease, { description: 'Draft notes and published ones with a pending revision, newest release first, Unreleased on top.' }),
    next: Nullable(Type.String({ description: 'Pass as `after` for the next page; null on the last page.' })),
  },
  { ...EXTENSION, $id: 'PendingReleases' },
);

export const EntryState = Type.Object(
  { project: ProjectRef, entry: Type.Object({ id: Uuid, status: StringEnum(ENTRY_STATUSES), published_at: Nullable(DateTime), updated_at: DateTime }) },
  { ...EXTENSION, $id: 'EntryState' },
);

export const ReleaseState = Type.Object(
  {
    project: ProjectRef,
    release: Type.Object({
      tag: Nullable(Type.String()),
      status: StringEnum(ENTRY_STATUSES),
      published_at: Nullable(DateTime),
      url: Type.String({ description: 'Where readers see it (the public API route of the note).' }),
    }),
  },
  { ...EXTENSION, $id: 'ReleaseState' },
);

export const SyncQueued = Type.Object(
  {
    project: ProjectRef,
    link: Type.Object({ id: Uuid }),
    queued: Type.Literal(true, { description: 'The ingest is queued (one waits at most, whatever the calls).' }),
  },
  { ...EXTENSION, $id: 'SyncQueued' },
);

export const PreviewBody = Type.Object(
  {
    ref: Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[^\\u0000-\\u001F\\u007F]+$',
      description: 'A tag, or a full or abbreviated (7+ hex digits) SHA, of the synced history.',
    }),
    tag: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        // As generation.service.ts checks it (PREVIEW_TAG): refused here, before the preview counts against the tenant's limit.
        pattern: '^[A-Za-z0-9@][A-Za-z0-9._@/+-]{0,199}$',
        description:
          'Preview the release as if `ref` were tagged this (the tag about to be pushed). Without it: the note of `ref` when it is a tag, else what would be Unreleased at `ref`.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PreviewResponse = Type.Object(
  {
    project: ProjectRef,
    preview: Type.Object({
      tag: Nullable(Type.String()),
      previous_tag: Nullable(Type.String()),
      version: Nullable(Type.String()),
      prerelease: Type.Boolean(),
      title: Type.String(),
      content: Type.String({ description: 'Markdown, as the generated note reads (the renderer of a publish).' }),
      sha: Type.String({ description: 'The commit `ref` named.' }),
      commits: Type.Integer({ description: 'Commits the note lists.' }),
    }),
  },
  { ...EXTENSION, $id: 'ReleasePreview' },
);
