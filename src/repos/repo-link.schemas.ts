import { Type } from '@sinclair/typebox';
import type { RepoLinkRow } from '../db/schema.js';
import { DateTime, Nullable, Uuid } from '../http/schemas.js';

/** A repository link as the API and the CLI show it (POST /v1/projects/{projectId}/repos, `changelog repos`). */
export const RepoLink = Type.Object(
  {
    id: Uuid,
    projectId: Uuid,
    kind: Type.Union([Type.Literal('github'), Type.Literal('local')], { description: 'github, or local (linked from the CLI).' }),
    scmInstallationId: Nullable(Uuid),
    repoOwner: Nullable(Type.String()),
    repoName: Nullable(Type.String()),
    trackedBranch: Type.String(),
    releaseBranches: Type.Array(Type.String(), {
      description: 'Branch patterns (`*.x`, `release/*`) whose tags make release notes beside the tracked branch; entries and rollups stay on the tracked branch.',
    }),
    defaultBranch: Nullable(Type.String({ description: "The repository's default branch on GitHub." })),
    status: Type.Union(
      ['pending', 'ingesting', 'active', 'error', 'suspended'].map((s) => Type.Literal(s)),
      {
        description:
          'pending (backfill queued), ingesting, active (up to date with the last push), error (the last ingest ' +
          'failed; it is retried with backoff; see lastError), suspended (the GitHub installation was suspended or removed).',
      },
    ),
    lastIngestedSha: Nullable(Type.String({ description: 'Tip of the tracked branch at the last completed ingest.' })),
    lastIngestedAt: Nullable(DateTime),
    lastError: Nullable(
      Type.String({ description: "With status error, why the last ingest failed (a git command that timed out says so); with status active, what it left out (more tags, or more matching release branches, than it reads)." }),
    ),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'RepoLink' },
);

export const presentLink = (link: RepoLinkRow) => ({
  id: link.id,
  projectId: link.project_id,
  kind: link.kind,
  scmInstallationId: link.installation_id,
  repoOwner: link.repo_owner,
  repoName: link.repo_name,
  trackedBranch: link.tracked_branch,
  releaseBranches: link.release_branches,
  defaultBranch: link.default_branch,
  status: link.status,
  lastIngestedSha: link.last_ingested_sha,
  lastIngestedAt: link.last_ingested_at,
  lastError: link.last_error,
  createdAt: link.created_at,
  updatedAt: link.updated_at,
});
