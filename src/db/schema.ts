import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Table types for Kysely; they mirror migrations/*.sql and change with them. */
export interface DB {
  users: UsersTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
  projects: ProjectsTable;
  commits: CommitsTable;
  changelog_entries: ChangelogEntriesTable;
  release_notes: ReleaseNotesTable;
  changelog_entry_revisions: EntryRevisionsTable;
  release_note_revisions: ReleaseRevisionsTable;
  release_note_edits: ReleaseEditsTable;
  release_note_summaries: ReleaseSummariesTable;
  api_keys: ApiKeysTable;
  api_key_projects: ApiKeyProjectsTable;
  schema_migrations: SchemaMigrationsTable;
  sessions: SessionsTable;
  sign_in_limits: SignInLimitsTable;
  account_setup_tokens: AccountSetupTokensTable;
  organization_invites: OrganizationInvitesTable;
  scm_installations: ScmInstallationsTable;
  repo_links: RepoLinksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  scm_install_states: ScmInstallStatesTable;
  scm_identities: ScmIdentitiesTable;
  webhook_payload_digests: WebhookPayloadDigestsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_event_deliveries: WebhookEventDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  published_entry_marks: PublishedEntryMarksTable;
  published_release_marks: PublishedReleaseMarksTable;
  github_link_publishing: GitHubLinkPublishingTable;
  github_release_syncs: GitHubReleaseSyncsTable;
  github_pull_requests: GitHubPullRequestsTable;
  github_pr_syncs: GitHubPrSyncsTable;
}

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** A column only the database writes (a trigger or a generated column): never in an insert or update. */
type Derived<T> = ColumnType<T, never, never>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  password_hash: string | null;
  is_instance_owner: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface OrganizationsTable {
  id: Generated<string>;
  slug: string;
  name: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type OrgRole = 'owner' | 'admin' | 'member';

export interface OrganizationMembersTable {
  organization_id: string;
  user_id: string;
  role: OrgRole;
  created_at: CreatedAt;
}

export type OwnerType = 'user' | 'org';

export interface ProjectsTable {
  id: Generated<string>;
  owner_type: OwnerType;
  owner_user_id: string | null;
  owner_org_id: string | null;
  name: string;
  slug: string;
  published_entry_count: Derived<number>;
  /** Kept by the release notes trigger (migrations/0029). */
  published_release_count: Derived<number>;
  /** Published entries of each type, kept by the same trigger (migrations/0024): each view's total, and the automatic default view. */
  published_commit_count: Derived<number>;
  published_daily_count: Derived<number>;
  published_weekly_count: Derived<number>;
  published_monthly_count: Derived<number>;
  /** The engine's SettingsInput as stored; see src/generation/settings.ts. */
  generation_settings: ColumnType<Record<string, unknown>, string | undefined, string>;
  /** Public page accent colour, `#rrggbb` (lowercase); null for the default. */
  theme_color: ColumnType<string | null, string | null | undefined, string | null>;
  /** Public page logo, an https URL; null for none. */
  logo_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** The view /c/{slug} shows by default (src/projects/public-view.ts); null: the page picks (migrations/0022). */
  public_view: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the public listing last changed (entries or displayed fields); kept by triggers (migrations/0017), never decreasing. */
  published_changed_at: Derived<Date>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface CommitsTable {
  id: Generated<string>;
  project_id: string;
  sha: string;
  parent_shas: ColumnType<string[], string[] | undefined, string[]>;
  author_name: string;
  author_email: string;
  authored_at: Timestamp;
  committer_name: string;
  committer_email: string;
  committed_at: Timestamp;
  message: string;
  created_at: CreatedAt;
  repo_link_id: string | null;
  author_tz_offset: ColumnType<number, number | undefined, number>;
  committer_tz_offset: ColumnType<number, number | undefined, number>;
  /** JSON text (`[[status, path], …]`), read whole: migrations/0028. */
  changes: ColumnType<string, string | undefined, string>;
  /** JSON text (`[{name, email}, …]`), read whole: migrations/0028. */
  co_authors: ColumnType<string, string | undefined, string>;
  pr_number: number | null;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  reachable: ColumnType<boolean, boolean | undefined, boolean>;
  /** False for a commit only the link's release branches reach (migrations/0034): no entry reads it. */
  on_tracked_branch: ColumnType<boolean, boolean | undefined, boolean>;
  /** JSON text of the commit's DependencyChanges (git/manifests.ts), null when ingest did not read them: migrations/0036. */
  dependencies: ColumnType<string | null, string | null | undefined, string | null>;
  /** `.github/release.yml` as the commit left it ('' deleted), null when it does not change it: migrations/0041. */
  release_config: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON text of the change fragments the commit adds (`[{path, text}]`), null for none: migrations/0041. */
  fragments: ColumnType<string | null, string | null | undefined, string | null>;
}

export type EntryType = 'commit' | 'daily' | 'weekly' | 'monthly';
export type EntryStatus = 'draft' | 'published' | 'archived';

export interface GeneratedJson {
  title: string;
  headline_items: { section_type_key: string; title: string; body: string | null }[];
  sections: { section_type_key: string; label: string; items: { text: string; component: string | null }[] }[];
  component_tags: string[];
  team_attribution: string | null;
}

export interface ChangelogEntriesTable {
  id: Generated<string>;
  project_id: string;
  entry_type: EntryType;
  status: ColumnType<EntryStatus, EntryStatus | undefined, EntryStatus>;
  title: string | null;
  content: string | null;
  generated_json: ColumnType<GeneratedJson | null, string | null, string | null>;
  version_label: string | null;
  team_attribution: string | null;
  component_tags: ColumnType<string[], string[] | undefined, string[]>;
  commit_id: string | null;
  commit_shas: ColumnType<string[], string[] | undefined, string[]>;
  period_start: ColumnType<Date | null, Date | string | null, Date | string | null>;
  period_end: ColumnType<Date | null, Date | string | null, Date | string | null>;
  published_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  generation_key: ColumnType<string | null, string | null | undefined, string | null>;
  fingerprint: ColumnType<string | null, string | null | undefined, string | null>;
  edited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  pending_regeneration: ColumnType<boolean, boolean | undefined, boolean>;
  /** Unique to each stored version of the row (migration 0012); read as text. */
  row_version: Derived<string>;
  /**
   * The entry's own date (its period's start, or its commit's date): set by generation's INSERT, else
   * by a trigger (migrations 0023, 0025). Written through raw SQL only, hence `never` here.
   */
  occurred_at: Derived<Date>;
  /** The date it carries as history (generated before the link), else null (migrations/0033). */
  history_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** When a person last sent it from published back to draft; cleared by a publish (migrations/0033). */
  unpublished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Release notes per project (migrations/0020): written by generation through the entries service. */
export interface ReleaseNotesTable {
  id: Generated<string>;
  project_id: string;
  /** `release:<tag>`, or `release:unreleased` (tag null). Unique per project. */
  key: string;
  tag: string | null;
  package: string | null;
  version: string | null;
  prerelease: ColumnType<boolean, boolean | undefined, boolean>;
  previous_tag: string | null;
  released_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  title: string;
  content: ColumnType<string, string | undefined, string>;
  generated_json: ColumnType<GeneratedJson, string, string>;
  team_attribution: string | null;
  component_tags: ColumnType<string[], string[] | undefined, string[]>;
  commit_shas: ColumnType<string[], string[] | undefined, string[]>;
  fingerprint: ColumnType<string | null, string | null | undefined, string | null>;
  status: ColumnType<EntryStatus, EntryStatus | undefined, EntryStatus>;
  published_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** coalesce(released_at, infinity): the listing's order (Unreleased first). */
  sort_at: Derived<Date>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** As on changelog_entries (migrations/0033). */
  history_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  unpublished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** An editor's introduction, Markdown (migrations/0035); null: none. */
  introduction: ColumnType<string | null, string | null | undefined, string | null>;
}

export type ContextType = 'user' | 'org';
export type KeyScope = 'all' | 'selected';

export interface ApiKeysTable {
  id: Generated<string>;
  name: string;
  context_type: ContextType;
  user_id: string | null;
  org_id: string | null;
  scope: KeyScope;
  key_hash: string;
  display_prefix: string;
  previous_key_hash: string | null;
  previous_expires_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  last_used_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  expires_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  revoked_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  /** The `publish` scope (0039): the automation routes' publishing, syncs and previews. */
  can_publish: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface ApiKeyProjectsTable {
  api_key_id: string;
  project_id: string;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  checksum: string;
  applied_at: CreatedAt;
}

export interface SessionsTable {
  id: Generated<string>;
  token_hash: string;
  user_id: string;
  created_at: CreatedAt;
  last_seen_at: ColumnType<Date, Date | string | undefined, Date | string>;
  expires_at: Timestamp;
  user_agent: string | null;
}

export interface SignInLimitsTable {
  key: string;
  failures: ColumnType<number, number | undefined, number>;
  window_started_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  succeeded_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface AccountSetupTokensTable {
  id: Generated<string>;
  token_hash: string;
  user_id: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  used_by: string | null;
}

export interface OrganizationInvitesTable {
  id: Generated<string>;
  organization_id: string;
  token_hash: string;
  role: OrgRole;
  created_by: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  used_by: string | null;
}
export type InstallationStatus = 'active' | 'suspended' | 'deleted';

export interface ScmInstallationsTable {
  id: Generated<string>;
  provider: ColumnType<'github', 'github' | undefined, never>;
  scm_installation_id: ColumnType<string, number | string, never>;
  context_type: ContextType;
  user_id: string | null;
  org_id: string | null;
  account_login: string;
  account_type: string;
  setup_action: string;
  status: ColumnType<InstallationStatus, InstallationStatus | undefined, InstallationStatus>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type RepoLinkKind = 'github' | 'local';
export type RepoLinkStatus = 'pending' | 'ingesting' | 'active' | 'error' | 'suspended';
/** Where a link's sync stands: idle, queued (a job waits), running (fetching and storing). */
export type RepoLinkSyncState = 'idle' | 'queued' | 'running';

export interface RepoLinksTable {
  id: Generated<string>;
  project_id: string;
  kind: RepoLinkKind;
  installation_id: string | null;
  repo_owner: string | null;
  repo_name: string | null;
  source_url: string;
  source_key: string;
  tracked_branch: string;
  default_branch: string | null;
  status: ColumnType<RepoLinkStatus, RepoLinkStatus | undefined, RepoLinkStatus>;
  last_ingested_sha: string | null;
  last_ingested_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_error: string | null;
  /** CODEOWNERS at the tracked branch's head when last ingested; null when there is none. */
  codeowners: ColumnType<string | null, string | null | undefined, string | null>;
  sync_state: ColumnType<RepoLinkSyncState, RepoLinkSyncState | undefined, RepoLinkSyncState>;
  /** Progress of the running (or last) sync: commits read and to read. */
  sync_done: ColumnType<number, number | undefined, number>;
  sync_total: ColumnType<number, number | undefined, number>;
  /** When the last sync ended, successfully or not. */
  last_synced_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Commits the last successful sync stored. */
  last_sync_added: ColumnType<number | null, number | null | undefined, number | null>;
  /** Linked from the dashboard: every fetch re-checks the path (REPO_PATHS_ALLOWED) or the URL's addresses. */
  restricted: ColumnType<boolean, boolean | undefined, boolean>;
  /** The running ingest's lease (repos/link-lock.ts): its token, and when it lapses unless renewed. */
  ingest_lease: ColumnType<string | null, string | null | undefined, string | null>;
  ingest_lease_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Branch patterns (`*.x`, `release/*`) whose tags make release notes too (migrations/0034). */
  release_branches: ColumnType<string[], string[] | undefined, string[]>;
  /** Release branch → its tip at the last completed ingest (the next one reads only what is new). */
  release_heads: ColumnType<Record<string, string>, string | undefined, string>;
  /** The tags the last complete ingest stored (a digest, ingest.service.ts); null while one runs, or after one failed. */
  tags_digest: ColumnType<string | null, string | null | undefined, string | null>;
  /** The CHANGELOG.md blob at the tracked branch's head when last ingested, and what it says (generation/calibration.ts; 0044). */
  changelog_blob: ColumnType<string | null, string | null | undefined, string | null>;
  changelog_calibration: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface WebhookDeliveriesTable {
  delivery_id: string;
  event: string;
  action: string | null;
  outcome: string;
  received_at: CreatedAt;
}

export interface ScmInstallStatesTable {
  nonce: string;
  context_type: ContextType;
  user_id: string | null;
  org_id: string | null;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
}

/** The GitHub user a context proved to be (migrations/0014). */
export interface ScmIdentitiesTable {
  id: Generated<string>;
  context_type: ContextType;
  user_id: string | null;
  org_id: string | null;
  github_user_id: ColumnType<string, number | string, number | string>;
  github_login: string;
  verified_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface WebhookPayloadDigestsTable {
  digest: string;
  delivery_id: string;
  received_at: CreatedAt;
}

/** Outbound webhooks (migrations/0009). */
export interface WebhookEndpointsTable {
  id: Generated<string>;
  project_id: string;
  url: string;
  event_types: string[];
  secret: string;
  created_at: CreatedAt;
}

export interface WebhookEventsTable {
  id: Generated<string>;
  project_id: string;
  type: string;
  entry_id: string | null;
  entry: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  created_at: CreatedAt;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookEventDeliveriesTable {
  id: Generated<string>;
  event_id: string;
  endpoint_id: string;
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  queued_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_attempt_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
}

export interface WebhookDeliveryAttemptsTable {
  id: Generated<string>;
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
  attempted_at: CreatedAt;
}

/**
 * Every K-th key of each public listing of entries, numbered from its oldest entry (migrations/0030):
 * derived data, written by the entries' triggers only, hence `never` on writes.
 */
export interface PublishedEntryMarksTable {
  project_id: Derived<string>;
  /** '' for the listings of every component, else a component of migrations/0029's listing. */
  component: Derived<string>;
  /** 'all' or an entry type. */
  listing: Derived<string>;
  /** The entry with seq × K older entries in the listing. */
  seq: Derived<number>;
  published_at: Derived<Date>;
  entry_id: Derived<string>;
}

/** The same for a project's published release notes, keyed as their listing is (sort_at, id). */
export interface PublishedReleaseMarksTable {
  project_id: Derived<string>;
  seq: Derived<number>;
  sort_at: Derived<Date>;
  release_id: Derived<string>;
}

/**
 * A pending revision (migrations/0032): content generation proposed for a published entry under the
 * `manual` policy, waiting for an editor to publish or discard it; the entry's row stays what readers see.
 */
interface RevisionColumns {
  project_id: string;
  /** The generated columns as one JSON object, as generation would write them in place. */
  record: ColumnType<Record<string, unknown>, string, string>;
  fingerprint: string;
  proposed_at: UpdatedAt;
  /** An editor kept the public revision; the row stays as the answer to this fingerprint. */
  discarded_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
export interface EntryRevisionsTable extends RevisionColumns {
  entry_id: string;
}
export interface ReleaseRevisionsTable extends RevisionColumns {
  release_id: string;
}

/** An editor's edits of a release note and the generated content they apply to (migrations/0035). */
export interface ReleaseEditsTable {
  release_id: string;
  project_id: string;
  /** src/entries/release-edits.ts ReleaseEdits. */
  edits: ColumnType<unknown, string, string>;
  /** The generated record the edits apply to. */
  generated: ColumnType<Record<string, unknown>, string, string>;
  edited_at: ColumnType<Date, Date | string | undefined, Date | string>;
  edited_by: string | null;
}

/** A language model's summary of a release note, verified, for the editor to accept or dismiss (migrations/0038). */
export interface ReleaseSummariesTable {
  release_id: string;
  project_id: string;
  fingerprint: string;
  model: string;
  status: 'pending' | 'accepted' | 'dismissed' | 'failed';
  /** src/entries/release-summaries.ts StoredSummary. */
  summary: ColumnType<unknown, string, string>;
  error: string | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  decided_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  decided_by: string | null;
}

export type PrChecksMode = 'off' | 'report' | 'blocking';

/** What a GitHub link publishes to GitHub (migrations/0040). */
export interface GitHubLinkPublishingTable {
  link_id: string;
  project_id: string;
  releases: ColumnType<boolean, boolean | undefined, boolean>;
  pr_checks: ColumnType<PrChecksMode, PrChecksMode | undefined, PrChecksMode>;
  pr_checks_error: ColumnType<string | null, string | null | undefined, string | null>;
  pr_checks_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  changelog_pr: ColumnType<boolean, boolean | undefined, boolean>;
  changelog_wanted: ColumnType<number, number | undefined, number>;
  changelog_queued: ColumnType<number, number | undefined, number>;
  changelog_synced: ColumnType<number, number | undefined, number>;
  changelog_pr_number: ColumnType<number | null, number | null | undefined, number | null>;
  changelog_synced_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  changelog_error: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: UpdatedAt;
}

/** Per GitHub link and tag: what its GitHub Release last received (migrations/0040). */
export interface GitHubReleaseSyncsTable {
  link_id: string;
  tag: string;
  wanted: ColumnType<number, number | undefined, number>;
  queued: ColumnType<number, number | undefined, number>;
  synced: ColumnType<number, number | undefined, number>;
  /** bigint: GitHub's release id, as a string. */
  release_id: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  created_by_service: ColumnType<boolean, boolean | undefined, boolean>;
  create_sent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_synced_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_attempt_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
}

export type GitHubLinkPublishingRow = Selectable<GitHubLinkPublishingTable>;
export type GitHubReleaseSyncRow = Selectable<GitHubReleaseSyncsTable>;
export type GitHubPullRequestRow = Selectable<GitHubPullRequestsTable>;
export type GitHubPrSyncRow = Selectable<GitHubPrSyncsTable>;
export type ScmInstallationRow = Selectable<ScmInstallationsTable>;
export type RepoLinkRow = Selectable<RepoLinksTable>;

export type UserRow = Selectable<UsersTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type CommitRow = Selectable<CommitsTable>;
/** An entry as the contract shows it; the generation bookkeeping columns are read by src/generation/. */
export type EntryRow = Omit<
  Selectable<ChangelogEntriesTable>,
  'generation_key' | 'fingerprint' | 'edited_at' | 'pending_regeneration' | 'row_version' | 'occurred_at' | 'history_at' | 'unpublished_at'
>;
export type NewEntry = Insertable<ChangelogEntriesTable>;
export type EntryUpdate = Updateable<ChangelogEntriesTable>;
export type ReleaseNoteRow = Selectable<ReleaseNotesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;

/** A GitHub link's merged pull request, as the App's GraphQL API listed it (migrations/0042). */
export interface GitHubPullRequestsTable {
  link_id: string;
  number: number;
  title: string;
  body: string;
  labels: ColumnType<string[], string[] | undefined, string[]>;
  author_login: string | null;
  author_is_bot: boolean;
  merged_at: Timestamp;
  updated_at: Timestamp;
  merge_sha: string | null;
  commit_shas: ColumnType<string[], string[] | undefined, string[]>;
  fetched_at: UpdatedAt;
}

/** Where a GitHub link's fetch of merged pull requests stands (migrations/0042). */
export interface GitHubPrSyncsTable {
  link_id: string;
  watermark: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  walk_cursor: ColumnType<string | null, string | null | undefined, string | null>;
  walk_top: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  generate_pending: ColumnType<boolean, boolean | undefined, boolean>;
  rewalk: ColumnType<boolean, boolean | undefined, boolean>;
  retry_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  last_synced_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  updated_at: UpdatedAt;
}
