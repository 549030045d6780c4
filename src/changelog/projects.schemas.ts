import { Type } from '@sinclair/typebox';
import { ChangelogEntry } from '../entries/entry.schemas.js';
import { DateTime, Uuid } from '../http/schemas.js';

export const ProjectSummary = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    slug: Type.String(),
    owner_type: Type.Union([Type.Literal('user'), Type.Literal('org')]),
    owner_id: Uuid,
    created_at: DateTime,
    updated_at: DateTime,
    changelog_entries: Type.Array(Type.Ref(ChangelogEntry), { description: 'Published entries only, newest first.' }),
  },
  { $id: 'ProjectSummary' },
);

export const ProjectsMeta = Type.Object({
  count: Type.Integer({ description: 'Number of projects returned.' }),
  entries_limit: Type.Integer(),
});

export const ProjectsResponse = Type.Object({
  projects: Type.Array(Type.Ref(ProjectSummary)),
  meta: ProjectsMeta,
});

