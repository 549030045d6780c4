import { loadConfig, type Config } from '../../src/config.js';

/**
 * Settings every test process starts from: rate limits off (a suite sends hundreds of requests from
 * one address) and load shedding off (a busy CI machine lags the event loop); the tests of those
 * features turn them on with their own limits. Password hashes are cheap (scrypt N = 2^12, refused in
 * production): the suite signs in hundreds of times, and N = 2^17 costs 0.4 s and 128 MiB each; and they
 * wait their turn for up to a minute (the password gate's own test sets its limit).
 * No polling of local links (a worker's first poll queues the ingest of every local link at once);
 * the tests of polling set their own interval.
 */
export const TEST_ENV = {
  NODE_ENV: 'test',
  RATE_LIMIT_ENABLED: 'false',
  UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
  PASSWORD_SCRYPT_LOG_N: '12',
  // Hashes still run one or two at a time, but a suite's bursts of sign-ins on a busy machine wait rather than get 503.
  PASSWORD_HASH_MAX_WAIT_MS: '60000',
  REPO_POLL_INTERVAL_SECONDS: '0',
};

export function testConfig(env: Record<string, string | undefined> = {}): Config {
  return loadConfig({ ...TEST_ENV, ...env });
}

/**
 * Settings for a suite of the per-tenant limits on expensive actions: the limiter on, the general
 * per-address limits out of the way (every client of a suite shares few addresses), `max` actions a
 * tenant may take in ten minutes.
 */
export function tenantLimitsEnv(max: number): Record<string, string> {
  return {
    RATE_LIMIT_ENABLED: 'true',
    RATE_LIMIT_PUBLIC_MAX: '100000',
    RATE_LIMIT_AUTHENTICATED_MAX: '100000',
    RATE_LIMIT_AUTH_FAILURES_MAX: '100000',
    RATE_LIMIT_TENANT_ACTIONS_MAX: String(max),
    RATE_LIMIT_TENANT_ACTIONS_WINDOW_MS: '600000',
  };
}
