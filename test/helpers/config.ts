import { loadConfig, type Config } from '../../src/config.js';

/**
 * Configuration for tests: rate limits are off, since a suite sends hundreds of requests from
 * one address; the rate-limit tests turn them on (RATE_LIMIT_ENABLED=true) with their own limits.
 */
export function testConfig(env: Record<string, string | undefined> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', RATE_LIMIT_ENABLED: 'false', ...env });
}
