import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../auth/auth.repository.js';
import type { Config } from '../config.js';
import type { Services } from '../services.js';
import type { Access } from './access.js';
import type { Html } from '../html/html.js';
import type { PageContext } from './views/layout.js';

export interface RenderOptions {
  status?: number;
  /** Sent as Retry-After (a form refused because the server is busy). */
  retryAfterSeconds?: number | undefined;
  section?: PageContext['section'];
  notice?: PageContext['notice'];
}

/** What every dashboard route module gets. */
export interface Kit {
  services: Services;
  config: Config;
  access: Access;
  /** The signed-in user; routes not marked public are only reached with one. */
  user(request: FastifyRequest): SessionUser;
  csrf(request: FastifyRequest): string;
  render(request: FastifyRequest, reply: FastifyReply, title: string, body: Html, options?: RenderOptions): FastifyReply;
  startSession(reply: FastifyReply, session: { token: string; expiresAt: Date }): void;
  clearSession(reply: FastifyReply): void;
}
