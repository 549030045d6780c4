import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../auth/auth.repository.js';
import type { AccountsService } from '../auth/accounts.service.js';
import type { Config } from '../config.js';
import type { EntriesService } from '../entries/entries.service.js';
import type { GenerationService } from '../generation/generation.service.js';
import type { PublishingService } from '../github/publishing.service.js';
import type { GitHubService } from '../github/github.service.js';
import type { MarkdownRenderer } from '../html/markdown-thread.js';
import type { KeysService } from '../keys/keys.service.js';
import type { OrgsService } from '../orgs/orgs.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { PublicPageService } from '../changelog/page/public-page.service.js';
import type { ReposService } from '../repos/repos.service.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import type { Access } from './access.js';
import type { Html } from '../html/html.js';
import type { PageContext } from './views/layout.js';
import { AppError } from '../errors.js';

export interface RenderOptions {
  status?: number;
  /** Sent as Retry-After (a form refused because the server is busy). */
  retryAfterSeconds?: number | undefined;
  section?: PageContext['section'];
  notice?: PageContext['notice'];
}

/** The services the dashboard's pages use, by the names services.ts gives them. */
export interface DashboardServices {
  accounts: AccountsService;
  orgs: OrgsService;
  projects: ProjectsService;
  keys: KeysService;
  entries: EntriesService;
  generation: GenerationService;
  repos: ReposService;
  github: GitHubService;
  /** What GitHub links publish to GitHub (releases, pull-request checks). */
  publishing: PublishingService;
  webhooks: WebhooksService;
  markdown: MarkdownRenderer;
  /** The public page's reads (the release editor's preview shows a note as that page does). */
  publicPage: PublicPageService;
}

/** What every dashboard route module gets. */
export interface Kit {
  services: DashboardServices;
  config: Config;
  access: Access;
  /** The signed-in user; routes not marked public are only reached with one. */
  user(request: FastifyRequest): SessionUser;
  csrf(request: FastifyRequest): string;
  render(request: FastifyRequest, reply: FastifyReply, title: string, body: Html, options?: RenderOptions): FastifyReply;
  startSession(reply: FastifyReply, session: { token: string; expiresAt: Date }): void;
  clearSession(reply: FastifyReply): void;
}

/** Rows a listing page shows: `?limit=` within 1..max (no page taller than a few screens), else `fallback`. */
export function pageLimit(text: string | undefined, max: number, fallback = max): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
}

/** A filtered listing page's input: the filter as typed, the cursor and page size, and what an action left to say. */
export interface ListingInput<Raw> {
  raw: Raw;
  after: string;
  limit: number;
  error?: AppError;
  notice?: RenderOptions['notice'];
}

/**
 * One page of a filtered listing. A filter that does not parse lists everything, and a damaged
 * cursor (an invalid_request) gives the first page: either way the page still renders, with the
 * reason as its error (the caller's own error first), rather than failing.
 */
export async function filteredPage<F extends object, T>(
  input: { after: string; limit: number; error?: AppError },
  parse: () => F,
  list: (filter: F, page: { limit: number; after?: string }) => Promise<T>,
): Promise<{ filter: F; listing: T; after: string; error?: AppError }> {
  let filter: F;
  let filterError: AppError | undefined;
  try {
    filter = parse();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Every field of a listing's filter is optional: the empty one lists everything.
    filter = {} as F;
    filterError = error;
  }
  const first = (cursor?: string) => list(filter, { limit: input.limit, ...(cursor ? { after: cursor } : {}) });
  try {
    return { filter, listing: await first(input.after || undefined), after: input.after, error: input.error ?? filterError };
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== 'invalid_request') throw e;
    return { filter, listing: await first(), after: '', error: input.error ?? filterError ?? e };
  }
}
