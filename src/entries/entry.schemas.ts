import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, Uuid } from '../http/schemas.js';
import { ENTRY_STATUSES, ENTRY_TYPES } from './entry-kinds.js';

export { ENTRY_STATUSES, ENTRY_TYPES };

export const HeadlineItem = Type.Object(
  { section_type_key: Type.String(), title: Type.String(), body: Nullable(Type.String()) },
  { $id: 'HeadlineItem' },
);

export const SectionItem = Type.Object(
  { text: Type.String(), component: Nullable(Type.String()) },
  { $id: 'SectionItem' },
);

export const Section = Type.Object(
  { section_type_key: Type.String(), label: Type.String(), items: Type.Array(Type.Ref(SectionItem)) },
  { $id: 'Section' },
);

export const GeneratedJson = Type.Object(
  {
    title: Type.String(),
    headline_items: Type.Array(Type.Ref(HeadlineItem)),
    sections: Type.Array(Type.Ref(Section)),
    component_tags: Type.Array(Type.String()),
    team_attribution: Nullable(Type.String()),
  },
  { $id: 'GeneratedJson', description: 'Structured form of an entry, from which `content` is rendered.' },
);

export const ChangelogEntry = Type.Object(
  {
    id: Uuid,
    project_id: Uuid,
    entry_type: Type.Union(ENTRY_TYPES.map((t) => Type.Literal(t))),
    status: Type.Union(ENTRY_STATUSES.map((s) => Type.Literal(s)), {
      description: 'Lifecycle: draft → published ⇄ draft, any → archived. Public routes only ever return published.',
    }),
    title: Nullable(Type.String()),
    content: Nullable(Type.String({ description: 'Markdown body.' })),
    generated_json: Type.Union([Type.Ref(GeneratedJson), Type.Null()]),
    version_label: Nullable(Type.String()),
    team_attribution: Nullable(Type.String()),
    component_tags: Type.Array(Type.String()),
    commit_id: Nullable(Uuid),
    commit_shas: Type.Array(Type.String()),
    period_start: Nullable(DateTime),
    period_end: Nullable(DateTime),
    published_at: Nullable(DateTime),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'ChangelogEntry' },
);

/** The columns that make up a ChangelogEntry (the schema above), in contract order. */
export const ENTRY_COLUMNS = [
  'id',
  'project_id',
  'entry_type',
  'status',
  'title',
  'content',
  'generated_json',
  'version_label',
  'team_attribution',
  'component_tags',
  'commit_id',
  'commit_shas',
  'period_start',
  'period_end',
  'published_at',
  'created_at',
  'updated_at',
] as const;

export type ChangelogEntryDto = Static<typeof ChangelogEntry>;

export const entrySchemas = [HeadlineItem, SectionItem, Section, GeneratedJson, ChangelogEntry];
