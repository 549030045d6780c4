import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths };
export type ChangelogEntry = components['schemas']['ChangelogEntry'];
export type ErrorResponse = components['schemas']['ErrorResponse'];
export type ChangelogClient = Client<paths>;

export interface ChangelogClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** An API key (`clk_…`), sent as `Authorization: Bearer <key>` on every request. */
  apiKey?: string;
}

/**
 * A typed client of the Changelog Service API: every path, parameter and response body is checked
 * against the service's OpenAPI document at compile time.
 *
 * ```ts
 * const api = createChangelogClient('https://changelog.example.com');
 * const { data, error } = await api.GET('/v1/changelog/{slug}', { params: { path: { slug: 'acme' }, query: { limit: 10 } } });
 * ```
 */
export function createChangelogClient(baseUrl: string, options: ChangelogClientOptions = {}): ChangelogClient {
  const { apiKey, headers, ...rest } = options;
  return createClient<paths>({
    ...rest,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...(headers as Record<string, string> | undefined) },
  });
}
