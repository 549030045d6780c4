import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers. Helmet's default Content-Security-Policy already suits the /docs page (Swagger UI
 * loads only same-origin scripts and stylesheets; inline styles are allowed by the default
 * `style-src`), so only two defaults change: `upgrade-insecure-requests` is dropped, because TLS
 * belongs to the proxy in front and the directive breaks the docs when served over plain HTTP; and
 * Cross-Origin-Resource-Policy is `cross-origin`, because the public changelog is meant to be read
 * from customers' pages.
 */
export async function registerHelmet(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
}
