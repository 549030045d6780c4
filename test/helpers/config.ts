import { loadConfig, type Config } from '../../src/config.js';

/**
 * Configuration for tests: rate limits are off, since a suite sends hundreds of requests from
 * one address; the rate-limit tests turn them on (RATE_LIMIT_ENABLED=true) with their own limits.
 * Load shedding is off too: on a busy CI machine the event loop of a test process (PGlite, git,
 * parallel files) stalls past a second now and then; the shedding test sets its own limit.
 */
export function testConfig(env: Record<string, string | undefined> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', RATE_LIMIT_ENABLED: 'false', UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0', ...env });
}
