import { loadConfig, type Config } from '../../src/config.js';

/**
 * Settings every test process starts from: rate limits off (a suite sends hundreds of requests from
 * one address) and load shedding off (a busy CI machine lags the event loop); the tests of those
 * features turn them on with their own limits.
 */
export const TEST_ENV = { NODE_ENV: 'test', RATE_LIMIT_ENABLED: 'false', UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' };

export function testConfig(env: Record<string, string | undefined> = {}): Config {
  return loadConfig({ ...TEST_ENV, ...env });
}
