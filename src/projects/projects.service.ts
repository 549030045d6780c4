import type { Db, Executor } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import type { ProjectRow } from '../db/schema.js';
import type { ContextRef, Principal, ResolvedContext } from '../context.js';
import type { OrgsService } from '../orgs/orgs.service.js';
import { AppError } from '../errors.js';
import { projectsRepository, type ProjectSummaryRow } from './projects.repository.js';
import type { Visibility } from './visibility.js';
import { slugProblem } from '../slug.js';
import { parseTheme } from './theme.js';
import { parsePublicView } from './public-view.js';

export function visibilityOf(principal: Principal): Visibility {
  if (principal.kind === 'identity') return { kind: 'user', userId: principal.userId };
  const selected = principal.scope === 'selected';
  return principal.context.type === 'user'
    ? { kind: 'user', userId: principal.context.userId, apiKeyId: principal.keyId, selected }
    : { kind: 'org', orgId: principal.context.orgId, apiKeyId: principal.keyId, selected };
}

/** The trimmed name, once name and slug pass the same rules on creation and on edit. */
function validNameAndSlug(input: { name: string; slug: string }): string {
  const problem = slugProblem(input.slug);
  const name = input.name.trim();
  const details = [];
  if (problem) details.push({ parameter: 'slug', message: problem });
  if (name.length < 1 || name.length > 200) details.push({ parameter: 'name', message: 'must be 1 to 200 characters' });
  if (details.length) throw new AppError('invalid_request', 'Invalid project', details);
  return name;
}

/** `owners` resolves `user:EMAIL` / `org:SLUG` inside the caller's transaction. */
export function createProjectsService(db: Db, readDb: Db, owners: Pick<OrgsService, 'resolveOwner'>) {
  return {
    /** The projects `principal` may see, by slug (the project listing's; its entries are the changelog's to read). */
    listVisible: (principal: Principal): Promise<ProjectSummaryRow[]> => projectsRepository.listVisible(readDb, visibilityOf(principal)),

    /**
     * The project of `slug` when `principal` may see it (its context's, and one of the key's selected
     * projects); otherwise 404, the same answer whether the slug is another tenant's or nobody's.
     */
    async visibleBySlug(slug: string, principal: Principal): Promise<ProjectRow> {
      const project = await projectsRepository.findVisibleBySlug(db, slug, visibilityOf(principal));
      if (!project) throw new AppError('not_found', `Project ${slug} not found`);
      return project;
    },

    async create(input: { name: string; slug: string; owner: ContextRef | ResolvedContext }): Promise<ProjectRow> {
      const name = validNameAndSlug(input);
      return db.transaction().execute(async (tx) => {
        const owner = 'email' in input.owner || 'slug' in input.owner ? await owners.resolveOwner(input.owner, tx) : input.owner;
        try {
          return await projectsRepository.insert(tx, { name, slug: input.slug, owner });
        } catch (error) {
          if (isUniqueViolation(error)) throw new AppError('conflict', `The project slug ${input.slug} is taken`);
          throw error;
        }
      });
    },

    // `tx`: another domain's service looking a project up inside its own transaction.
    findBySlug: (slug: string, tx: Executor = db) => projectsRepository.findBySlug(tx, slug),
    findById: (id: string, tx: Executor = db) => projectsRepository.findById(tx, id),
    count: () => projectsRepository.count(db),
    listForContext: (context: ResolvedContext) => projectsRepository.listByOwner(db, context),

    /** Every project, or those of `owner`, by slug, each with its owner reference and published entry count (the CLI's list). */
    async list(owner?: ContextRef) {
      return projectsRepository.listWithOwners(db, owner ? await owners.resolveOwner(owner) : undefined);
    },

    /** Renames and/or re-slugs a project, with the same rules as creation. */
    async update(id: string, input: { name: string; slug: string }): Promise<ProjectRow> {
      const name = validNameAndSlug(input);
      try {
        const updated = await projectsRepository.update(db, id, { name, slug: input.slug });
        if (!updated) throw new AppError('not_found', 'Project not found');
        return updated;
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new AppError('conflict', `The project slug ${input.slug} is taken`, [{ parameter: 'slug', message: 'is taken' }]);
        }
        throw error;
      }
    },

    /** Sets the public page's colour and logo (empty strings clear them), validated by parseTheme. */
    async updateTheme(id: string, input: { color: string; logoUrl: string; publicView?: string }): Promise<ProjectRow> {
      const theme = parseTheme(input);
      // The default view of the page goes with its look (one form); left out, it is kept.
      const view = input.publicView !== undefined ? { public_view: parsePublicView(input.publicView) } : {};
      const updated = await projectsRepository.update(db, id, { theme_color: theme.color, logo_url: theme.logoUrl, ...view });
      if (!updated) throw new AppError('not_found', 'Project not found');
      return updated;
    },

    /** Sets the view /c/{slug} shows by default ('' or 'auto': the page picks; see public-view.ts). */
    async setPublicView(id: string, view: string | null): Promise<ProjectRow> {
      const updated = await projectsRepository.update(db, id, { public_view: parsePublicView(view) });
      if (!updated) throw new AppError('not_found', 'Project not found');
      return updated;
    },

    /**
     * The project's generation settings as stored (`{}` for none), read in `tx` (a generation run
     * reads them under its lock). Generation gives them their meaning and validates them; the project
     * row holds them.
     */
    async generationSettings(id: string, tx: Executor = db): Promise<Record<string, unknown>> {
      return (await projectsRepository.findById(tx, id))?.generation_settings ?? {};
    },

    /**
     * Links pull requests on the public page of a project linked to a GitHub repository: `pullRequestUrl`
     * set from that repository unless the project has one (or an editor cleared it).
     */
    async defaultPullRequestUrl(id: string, template: string): Promise<boolean> {
      return projectsRepository.defaultGenerationSetting(db, id, 'pullRequestUrl', template);
    },

    /** Stores generation settings that generation validated, as given. */
    async saveGenerationSettings(id: string, input: Record<string, unknown>, tx: Executor = db): Promise<void> {
      await projectsRepository.update(tx, id, { generation_settings: JSON.stringify(input) });
    },

    /** A project by id, for work already tied to it (a job); undefined when it was deleted. */
    async byId(id: string): Promise<ProjectRow | undefined> {
      return projectsRepository.findById(db, id);
    },

    async delete(id: string): Promise<void> {
      if (!(await projectsRepository.delete(db, id))) throw new AppError('not_found', 'Project not found');
    },
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
