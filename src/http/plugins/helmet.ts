import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers. Helmet's default Content-Security-Policy already suits the /docs page (Swagger UI
 * loads only same-origin scripts and stylesheets; inline styles are allowed by the default
 * `style-src`), so only two defaults change: `upgrade-insecure-requests` is dropped, because TLS
 * belongs to the proxy in front and the directive breaks the docs when served over plain HTTP; and
 * Cross-Origin-Resource-Policy is `cross-origin`, because the public changelog is meant to be read
 * from customers' pages.
 */
export const HELMET_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  crossOriginResourcePolicy: { policy: 'cross-origin' },
};

/**
 * The headers helmet sets with these options. They do not depend on the request (no nonces), so
 * helmet runs once at start-up rather than on every request, which is what the Fastify plugin
 * does: it rebuilds helmet's middleware, CSP parsing included, per request.
 */
export function helmetHeaders(options: Readonly<HelmetOptions> = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let finished = false;
  helmet({ ...options })({} as never, recorder as never, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  if (!finished) throw new Error('helmet did not finish synchronously');
  return headers;
}

export async function registerHelmet(app: FastifyInstance): Promise<void> {
  const headers = helmetHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
