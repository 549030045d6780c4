import { resolve } from 'node:path';

/** Every setting the service reads, parsed once at start-up. Documented in README.md and .env.example. */
export interface Config {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly serviceName: string;
  readonly host: string;
  readonly port: number;
  /** Base URL people and links use to reach this server (dashboard links, printed hints). */
  readonly publicUrl: string;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly database: DatabaseConfig;
  readonly demoSeed: boolean;
  /** `max-age` (seconds) of the Cache-Control header on public changelog responses. */
  readonly publicCacheMaxAge: number;
  readonly identityHeader: { readonly enabled: boolean; readonly gatewaySecret: string | null };
  readonly shutdownTimeoutMs: number;
  readonly hardening: HardeningConfig;
}

/** Abuse limits, fault handling and observability (see README, "Operations"). */
export interface HardeningConfig {
  /** Proxies whose X-Forwarded-For is believed (addresses or CIDRs); empty = use the socket address. */
  readonly trustedProxies: readonly string[];
  readonly rateLimit: {
    readonly enabled: boolean;
    readonly windowMs: number;
    /** Requests per window per client address on public routes. */
    readonly publicMax: number;
    /** Requests per window per API key on authenticated routes. */
    readonly authenticatedMax: number;
    /** Failed authentications per window per client address before it is refused outright. */
    readonly authFailuresMax: number;
    readonly redisUrl: string | null;
    readonly redisPrefix: string;
  };
  readonly bodyLimitBytes: number;
  readonly requestTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  /** Longest wait for a database connection or statement before a request is answered 503. */
  readonly databaseTimeoutMs: number;
  readonly underPressure: {
    readonly maxEventLoopDelayMs: number;
    readonly maxEventLoopUtilization: number;
    readonly retryAfterSeconds: number;
  };
  /** Bearer token that unlocks GET /metrics; null = no /metrics route. */
  readonly metricsToken: string | null;
}

export type DatabaseConfig =
  | { readonly kind: 'postgres'; readonly url: string; readonly poolMax: number }
  | { readonly kind: 'pglite'; readonly dataDir: string };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;

/**
 * Reads the environment into a frozen Config. Collects every problem instead of stopping at the
 * first one, so an operator fixes a broken deployment in one pass.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };

  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const value = read(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    problems.push(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
    return fallback;
  };

  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const value = read(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${value}")`);
      return fallback;
    }
    return Number(value);
  };

  const bool = (name: string, fallback: boolean): boolean => {
    const value = read(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(value)) return true;
    if (['0', 'false', 'no', 'off'].includes(value)) return false;
    problems.push(`${name} must be true or false (got "${value}")`);
    return fallback;
  };

  const nodeEnv = oneOf('NODE_ENV', NODE_ENVS, 'development');
  const port = integer('PORT', 3000, 0, 65535);
  const host = read('HOST') ?? '0.0.0.0';

  let publicUrl = read('PUBLIC_URL') ?? `http://localhost:${port}`;
  try {
    const url = new URL(publicUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
    publicUrl = url.toString().replace(/\/$/, '');
  } catch {
    problems.push(`PUBLIC_URL must be an absolute http(s) URL (got "${publicUrl}")`);
  }

  let database: DatabaseConfig;
  const databaseUrl = read('DATABASE_URL');
  const poolMax = integer('DATABASE_POOL_MAX', 10, 1, 1000);
  if (databaseUrl !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
      problems.push('DATABASE_URL must start with postgres:// or postgresql://');
    }
    database = { kind: 'postgres', url: databaseUrl, poolMax };
  } else {
    database = { kind: 'pglite', dataDir: resolve(read('DATA_DIR') ?? './data') };
  }

  const identityEnabled = bool('IDENTITY_HEADER_ENABLED', false);
  const gatewaySecret = read('IDENTITY_GATEWAY_SECRET') ?? null;
  if (identityEnabled && (gatewaySecret === null || gatewaySecret.length < 32)) {
    problems.push('IDENTITY_GATEWAY_SECRET must be set to at least 32 characters when IDENTITY_HEADER_ENABLED is true');
  }

  const trustedProxies = (read('TRUSTED_PROXIES') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const proxy of trustedProxies) {
    if (!/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(proxy)) {
      problems.push(`TRUSTED_PROXIES must list IP addresses or CIDR ranges, comma-separated (got "${proxy}")`);
    }
  }
  const redisUrl = read('REDIS_URL') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must start with redis:// or rediss://');
  const metricsToken = read('METRICS_TOKEN') ?? null;
  if (metricsToken !== null && metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters');
  const eluPercent = integer('UNDER_PRESSURE_MAX_EVENT_LOOP_UTILIZATION', 0, 0, 100);

  const hardening: HardeningConfig = {
    trustedProxies,
    rateLimit: {
      enabled: bool('RATE_LIMIT_ENABLED', true),
      windowMs: integer('RATE_LIMIT_WINDOW_MS', 60_000, 1_000, 86_400_000),
      publicMax: integer('RATE_LIMIT_PUBLIC_MAX', 300, 1, 1_000_000),
      authenticatedMax: integer('RATE_LIMIT_AUTHENTICATED_MAX', 600, 1, 1_000_000),
      authFailuresMax: integer('RATE_LIMIT_AUTH_FAILURES_MAX', 20, 1, 1_000_000),
      redisUrl,
      redisPrefix: read('RATE_LIMIT_REDIS_PREFIX') ?? 'changelog-rl:',
    },
    bodyLimitBytes: integer('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    requestTimeoutMs: integer('REQUEST_TIMEOUT_MS', 30_000, 1_000, 600_000),
    headersTimeoutMs: integer('HEADERS_TIMEOUT_MS', 10_000, 1_000, 600_000),
    keepAliveTimeoutMs: integer('KEEP_ALIVE_TIMEOUT_MS', 72_000, 1_000, 600_000),
    databaseTimeoutMs: integer('DATABASE_TIMEOUT_MS', 5_000, 100, 600_000),
    underPressure: {
      maxEventLoopDelayMs: integer('UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS', 1_000, 0, 60_000),
      maxEventLoopUtilization: eluPercent / 100,
      retryAfterSeconds: integer('UNDER_PRESSURE_RETRY_AFTER_SECONDS', 10, 1, 3_600),
    },
    metricsToken,
  };

  const config: Config = {
    nodeEnv,
    serviceName: read('SERVICE_NAME') ?? 'changelog-service',
    host,
    port,
    publicUrl,
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'silent' : 'info'),
    database,
    demoSeed: bool('DEMO_SEED', true),
    publicCacheMaxAge: integer('PUBLIC_CACHE_MAX_AGE', 30, 0, 86_400),
    identityHeader: { enabled: identityEnabled, gatewaySecret: identityEnabled ? gatewaySecret : null },
    shutdownTimeoutMs: integer('SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    hardening,
  };

  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(config);
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) {
    if (child !== null && typeof child === 'object') deepFreeze(child as object);
  }
  return Object.freeze(value);
}
