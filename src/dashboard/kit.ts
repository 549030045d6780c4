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

/**
 * One keyset page of a listing from its cursor (`after`, '' for the first page). A damaged cursor
 * (an invalid_request) gives the first page with the reason, instead of an error page.
 */
export async function keysetPage<T>(after: string, list: (after?: string) => Promise<T>): Promise<{ listing: T; after: string; cursorError?: AppError }> {
  try {
    return { listing: await list(after || undefined), after };
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== 'invalid_request') throw e;
    return { listing: await list(), after: '', cursorError: e };
  }
}

/**
 * A page's filter from its query: what `parse` makes of it, or `fallback` and the refusal to show
 * (the page still renders, with the error, rather than failing).
 */
export function filterOrError<T>(parse: () => T, fallback: T): { filter: T; filterError?: AppError } {
  try {
    return { filter: parse() };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { filter: fallback, filterError: error };
  }
}
