import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';

/** Every setting the service reads, parsed once at start-up. Documented in docs/configuration.md and .env.example. */
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
  readonly responseCache: { readonly enabled: boolean; readonly maxBytes: number; readonly ttlMs: number };
  /** Memory for serialized entries reused by row version (independent of the response cache). */
  readonly entryJsonCacheBytes: number;
  /** How far past what a full garbage collection left alive the JS heap may grow (0: V8's own choice). */
  readonly heapGrowthPercent: number;
  /** Dashboard: whether anyone may sign up after the first account (otherwise by invitation only). */
  readonly signupOpen: boolean;
  /** Dashboard: how long a sign-in lasts. */
  readonly sessionTtlHours: number;
  /** scrypt cost of new password hashes, log2(N): 17 (OWASP's minimum); lower only outside production, for tests. */
  readonly passwordScryptLogN: number;
  /**
   * Password hashes (sign-ins, sign-ups, password changes) running at once in this process, and the
   * longest one may wait its turn before the request is answered 503 (src/auth/password-gate.ts).
   */
  readonly passwordHashing: { readonly concurrency: number; readonly maxWaitMs: number };
  readonly github: GitHubConfig;
  /** Where the bare mirrors of linked repositories live. */
  readonly reposDir: string;
  readonly repoLinks: RepoLinksConfig;
  readonly git: GitConfig;
  /** `changelog serve` also runs the background worker (repository ingestion). */
  readonly workerInProcess: boolean;
  /** Longest a generation run's engine may take (in its worker thread) before it is stopped and the job fails. */
  readonly generationTimeBudgetMs: number;
  /**
   * Longest one entry's Markdown may take to render in a worker thread (and to wait for one) before
   * the page or feed shows it as plain text instead.
   */
  readonly markdownTimeLimitMs: number;
  readonly hardening: HardeningConfig;
  readonly webhooks: WebhooksConfig;
  /** The language model that writes release summaries (docs/summaries.md); null: none, summaries off everywhere. */
  readonly llm: LlmConfig | null;
}

/** An OpenAI-compatible chat-completions server (docs/summaries.md). */
export interface LlmConfig {
  /** The API root, e.g. http://127.0.0.1:11434/v1; `/chat/completions` is appended. The only place summaries call. */
  readonly baseUrl: string;
  readonly model: string;
  /** Sent as a bearer token when set; never logged. */
  readonly apiKey: string | null;
  /** Longest one release's summary may take, the whole answer read. */
  readonly timeoutMs: number;
  /** Release notes summarized at most per generation run (newest first). */
  readonly releasesPerRun: number;
}

/** Repositories linked from the dashboard, and polling of links without push webhooks (see docs/repositories.md). */
export interface RepoLinksConfig {
  /**
   * Absolute directories under which the dashboard may link local paths (compared after resolving
   * symlinks); empty = no local paths from the dashboard. The CLI, run by the operator, may link any path.
   */
  readonly pathsAllowed: readonly string[];
  /**
   * Slugs of the organizations whose owners may link those paths in the organization's projects.
   * The installation owner always may; nobody else (anyone can create an organization and own it,
   * so owning one is no grant by itself).
   */
  readonly pathsOrgs: readonly string[];
  /** How often the worker fetches links without push webhooks (local paths, plain git URLs); 0 = never. */
  readonly pollIntervalSeconds: number;
  /** Ingests a worker process runs at once (never two of one link, in any process). */
  readonly ingestConcurrency: number;
  /** Ingests of one tenant (a project's owner) running at once across all processes: the rest is left to other tenants. */
  readonly ingestConcurrencyPerTenant: number;
}

/** What one git process may spend (src/git/git.ts): a stuck remote costs its own link this much, no more. */
export interface GitConfig {
  /** Longest one git command may run before it is stopped and its ingest fails as timed out. */
  readonly timeoutMs: number;
  /** Longest a transfer may stay under 1,000 bytes/s, and a streamed read may wait for git's output. */
  readonly stallMs: number;
}

/** Outbound webhooks (see docs/webhooks.md). */
export interface WebhooksConfig {
  /**
   * Hosts that may be private, loopback or plain http: host names, addresses and CIDR ranges. Every
   * other endpoint must be https and resolve to public addresses only.
   */
  readonly allowedHosts: readonly string[];
  /** Longest wait for an endpoint's answer, connection included. */
  readonly timeoutMs: number;
  /** Retries after a failed attempt (so retryLimit + 1 attempts in all). */
  readonly retryLimit: number;
  /** First retry delay; doubled on each retry, with jitter (pg-boss's exponential backoff). */
  readonly retryDelaySeconds: number;
  /** How often the worker queues the deliveries of new events. */
  readonly dispatchIntervalMs: number;
  /** Deliveries a worker process sends at once. */
  readonly concurrency: number;
  /** Deliveries of one tenant (a project's owner) sent at once across all processes: the rest is left to other tenants. */
  readonly concurrencyPerTenant: number;
  /** Key material that encrypts signing secrets at rest (AES-256-GCM); null = stored as they are. */
  readonly encryptionKey: string | null;
}

export interface GitHubConfig {
  readonly appId: number | null;
  /** PEM text (read from the file when GITHUB_APP_PRIVATE_KEY names one). */
  readonly privateKey: string | null;
  readonly webhookSecret: string | null;
  /** REST API root: https://api.github.com, or https://HOST/api/v3 on GitHub Enterprise Server. */
  readonly apiUrl: string;
  /** Where "Connect GitHub" sends people to install the app (https://github.com/apps/NAME/installations/new). */
  readonly installUrl: string | null;
  /** The app's OAuth client: proves who installed it (user authorization during installation). */
  readonly clientId: string | null;
  readonly clientSecret: string | null;
  /** GitHub's web root (OAuth pages and token exchange): https://github.com, or https://HOST on Enterprise Server. */
  readonly webUrl: string;
  /** Lower-case GitHub logins whose installations any context of this server may claim without proof. */
  readonly trustedAccounts: readonly string[];
  /** Longest one request to GitHub may take, its whole answer read (src/github/github.client.ts). */
  readonly timeoutMs: number;
}

/** Abuse limits, fault handling and observability (see docs/operations.md). */
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
    /**
     * Expensive actions (src/http/plugins/rate-limit.ts, `TenantAction`) per tenant (the user or
     * organization that owns the project) and per action, in `tenantActionsWindowMs`.
     */
    readonly tenantActionsMax: number;
    readonly tenantActionsWindowMs: number;
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
  | {
      readonly kind: 'postgres';
      readonly url: string;
      readonly readUrl: string | null;
      readonly poolMax: number;
      /** Hot read statements as named prepared statements (default true); off behind a pooler that cannot keep them. */
      readonly preparedStatements?: boolean;
    }
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

  const dataDir = resolve(read('DATA_DIR') ?? './data');
  let database: DatabaseConfig;
  const databaseUrl = read('DATABASE_URL');
  const readUrl = read('DATABASE_READ_URL') ?? null;
  const poolMax = integer('DATABASE_POOL_MAX', 10, 1, 1000);
  const preparedStatements = bool('DATABASE_PREPARED_STATEMENTS', true);
  const postgresUrl = /^postgres(ql)?:\/\//;
  if (databaseUrl !== undefined) {
    if (!postgresUrl.test(databaseUrl)) problems.push('DATABASE_URL must start with postgres:// or postgresql://');
    if (readUrl !== null && !postgresUrl.test(readUrl)) {
      problems.push('DATABASE_READ_URL must start with postgres:// or postgresql://');
    }
    database = { kind: 'postgres', url: databaseUrl, readUrl, poolMax, preparedStatements };
  } else {
    if (readUrl !== null) problems.push('DATABASE_READ_URL needs DATABASE_URL (a replica of the embedded database does not exist)');
    database = { kind: 'pglite', dataDir };
  }

  const identityEnabled = bool('IDENTITY_HEADER_ENABLED', false);
  const gatewaySecret = read('IDENTITY_GATEWAY_SECRET') ?? null;
  if (identityEnabled && (gatewaySecret === null || gatewaySecret.length < 32)) {
    problems.push('IDENTITY_GATEWAY_SECRET must be set to at least 32 characters when IDENTITY_HEADER_ENABLED is true');
  }

  const appIdText = read('GITHUB_APP_ID');
  let appId: number | null = null;
  if (appIdText !== undefined) {
    if (/^\d{1,15}$/.test(appIdText) && Number(appIdText) > 0) appId = Number(appIdText);
    else problems.push(`GITHUB_APP_ID must be a positive integer (got "${appIdText}")`);
  }
  let privateKey = read('GITHUB_APP_PRIVATE_KEY') ?? null;
  if (privateKey !== null) {
    // A PEM pasted into one line of an .env file keeps its newlines as "\n".
    privateKey = privateKey.replace(/\\n/g, '\n');
    if (!privateKey.includes('-----BEGIN')) {
      if (existsSync(privateKey)) privateKey = readFileSync(privateKey, 'utf8');
      else problems.push('GITHUB_APP_PRIVATE_KEY must be a PEM private key or the path of a file holding one');
    }
    if (privateKey !== null && privateKey.includes('-----BEGIN') && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(privateKey)) {
      problems.push('GITHUB_APP_PRIVATE_KEY must be a PEM private key');
    }
  }
  const httpUrl = (name: string, fallback: string | null): string | null => {
    const value = read(name) ?? fallback;
    if (value === null) return null;
    try {
      const url = new URL(value);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
      return url.toString().replace(/\/$/, '');
    } catch {
      problems.push(`${name} must be an absolute http(s) URL (got "${value}")`);
      return fallback;
    }
  };
  const github: GitHubConfig = {
    appId,
    privateKey,
    webhookSecret: read('GITHUB_WEBHOOK_SECRET') ?? null,
    apiUrl: httpUrl('GITHUB_API_URL', 'https://api.github.com') ?? 'https://api.github.com',
    installUrl: httpUrl('GITHUB_APP_INSTALL_URL', null),
    clientId: read('GITHUB_CLIENT_ID') ?? null,
    clientSecret: read('GITHUB_CLIENT_SECRET') ?? null,
    webUrl: httpUrl('GITHUB_WEB_URL', 'https://github.com') ?? 'https://github.com',
    trustedAccounts: Object.freeze(
      (read('GITHUB_TRUSTED_ACCOUNTS') ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean),
    ),
    timeoutMs: integer('GITHUB_TIMEOUT_MS', 10_000, 100, 600_000),
  };
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
  const webhookAllowedHosts = (read('WEBHOOK_ALLOWED_HOSTS') ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (const host of webhookAllowedHosts) {
    if (!/^[a-z0-9.-]+$|^[0-9a-f:.]+(\/\d{1,3})?$|^\[[0-9a-f:.]+\]$/.test(host)) {
      problems.push(`WEBHOOK_ALLOWED_HOSTS must list host names, IP addresses or CIDR ranges, comma-separated (got "${host}")`);
    }
  }
  const repoPathsAllowed = (read('REPO_PATHS_ALLOWED') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const path of repoPathsAllowed) {
    if (!isAbsolute(path)) problems.push(`REPO_PATHS_ALLOWED must list absolute directories, comma-separated (got "${path}")`);
  }
  const repoPathsOrgs = (read('REPO_PATHS_ORGS') ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (const slug of repoPathsOrgs) {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug)) problems.push(`REPO_PATHS_ORGS must list organization slugs, comma-separated (got "${slug}")`);
  }
  const webhookEncryptionKey = read('WEBHOOK_ENCRYPTION_KEY') ?? null;
  if (webhookEncryptionKey !== null && webhookEncryptionKey.length < 32) problems.push('WEBHOOK_ENCRYPTION_KEY must be at least 32 characters');
  const ingestConcurrency = integer('INGEST_CONCURRENCY', 3, 1, 64);
  // By default a tenant may use every slot but one: with a stuck remote, the others' ingests go on.
  const ingestConcurrencyPerTenant = integer('INGEST_CONCURRENCY_PER_TENANT', Math.max(1, ingestConcurrency - 1), 1, 64);
  if (ingestConcurrencyPerTenant > ingestConcurrency) {
    problems.push(`INGEST_CONCURRENCY_PER_TENANT must be at most INGEST_CONCURRENCY (${ingestConcurrency}) (got "${ingestConcurrencyPerTenant}")`);
  }
  const webhookConcurrency = integer('WEBHOOK_CONCURRENCY', 4, 1, 64);
  // As for ingests: a tenant whose endpoints hang leaves a slot to everyone else.
  const webhookConcurrencyPerTenant = integer('WEBHOOK_CONCURRENCY_PER_TENANT', Math.max(1, webhookConcurrency - 1), 1, 64);
  if (webhookConcurrencyPerTenant > webhookConcurrency) {
    problems.push(`WEBHOOK_CONCURRENCY_PER_TENANT must be at most WEBHOOK_CONCURRENCY (${webhookConcurrency}) (got "${webhookConcurrencyPerTenant}")`);
  }
  const eluPercent = integer('UNDER_PRESSURE_MAX_EVENT_LOOP_UTILIZATION', 0, 0, 100);

  const hardening: HardeningConfig = {
    trustedProxies,
    rateLimit: {
      enabled: bool('RATE_LIMIT_ENABLED', true),
      windowMs: integer('RATE_LIMIT_WINDOW_MS', 60_000, 1_000, 86_400_000),
      publicMax: integer('RATE_LIMIT_PUBLIC_MAX', 300, 1, 1_000_000),
      authenticatedMax: integer('RATE_LIMIT_AUTHENTICATED_MAX', 600, 1, 1_000_000),
      authFailuresMax: integer('RATE_LIMIT_AUTH_FAILURES_MAX', 20, 1, 1_000_000),
      tenantActionsMax: integer('RATE_LIMIT_TENANT_ACTIONS_MAX', 20, 1, 1_000_000),
      tenantActionsWindowMs: integer('RATE_LIMIT_TENANT_ACTIONS_WINDOW_MS', 600_000, 1_000, 86_400_000),
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

  const llmBaseUrl = httpUrl('LLM_BASE_URL', null);
  const llmModel = read('LLM_MODEL') ?? null;
  const llmTimeoutMs = integer('LLM_TIMEOUT_MS', 60_000, 100, 600_000);
  const llmReleasesPerRun = integer('LLM_RELEASES_PER_RUN', 3, 1, 100);
  if (llmBaseUrl !== null && llmModel === null) problems.push('LLM_MODEL must name the model when LLM_BASE_URL is set');
  // The key goes in LLM_API_KEY (sent as a header, never logged); a URL's user info would reach error messages.
  if (llmBaseUrl !== null && /^[a-z]+:\/\/[^/]*@/i.test(llmBaseUrl)) problems.push('LLM_BASE_URL must not hold credentials (use LLM_API_KEY)');
  if (llmBaseUrl === null && llmModel !== null) problems.push('LLM_MODEL needs LLM_BASE_URL (the server to ask)');
  const llm: LlmConfig | null =
    llmBaseUrl !== null && llmModel !== null
      ? { baseUrl: llmBaseUrl, model: llmModel, apiKey: read('LLM_API_KEY') ?? null, timeoutMs: llmTimeoutMs, releasesPerRun: llmReleasesPerRun }
      : null;

  const passwordScryptLogN = integer('PASSWORD_SCRYPT_LOG_N', 17, 10, 20);
  if (nodeEnv === 'production' && passwordScryptLogN < 17) {
    problems.push(`PASSWORD_SCRYPT_LOG_N must be at least 17 in production (got ${passwordScryptLogN}); lower costs are for tests`);
  }

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
    responseCache: {
      enabled: bool('RESPONSE_CACHE', true),
      maxBytes: integer('RESPONSE_CACHE_MAX_MB', 64, 1, 4096) * 1024 * 1024,
      // Change notifications come from the primary; a replica may replay a change after its
      // notification, so with one the safety net is short enough to bound that staleness.
      ttlMs: readUrl !== null ? 1_000 : 300_000,
    },
    entryJsonCacheBytes: integer('ENTRY_JSON_CACHE_MB', 32, 1, 4096) * 1024 * 1024,
    heapGrowthPercent: integer('HEAP_GROWTH_PERCENT', 100, 0, 1_000),
    signupOpen: bool('SIGNUP_OPEN', false),
    sessionTtlHours: integer('SESSION_TTL_HOURS', 336, 1, 8_760),
    passwordScryptLogN,
    passwordHashing: {
      // Half the processors, one or two: the rest of the server keeps a core, and libuv's thread pool
      // (4 threads, shared with file and DNS calls) is never all scrypt.
      concurrency: integer('PASSWORD_HASH_CONCURRENCY', Math.max(1, Math.min(2, Math.floor(availableParallelism() / 2))), 1, 16),
      maxWaitMs: integer('PASSWORD_HASH_MAX_WAIT_MS', 4_000, 0, 60_000),
    },
    github,
    reposDir: resolve(read('REPOS_DIR') ?? resolve(dataDir, 'repos')),
    repoLinks: {
      pathsAllowed: repoPathsAllowed.map((p) => resolve(p)),
      pathsOrgs: repoPathsOrgs,
      pollIntervalSeconds: integer('REPO_POLL_INTERVAL_SECONDS', 300, 0, 86_400),
      ingestConcurrency,
      ingestConcurrencyPerTenant,
    },
    git: {
      timeoutMs: integer('GIT_TIMEOUT_MS', 600_000, 1_000, 86_400_000),
      // curl counts its low-speed time in whole seconds.
      stallMs: integer('GIT_STALL_TIMEOUT_MS', 60_000, 1_000, 3_600_000),
    },
    workerInProcess: bool('WORKER_IN_PROCESS', true),
    generationTimeBudgetMs: integer('GENERATION_TIME_BUDGET_MS', 300_000, 1, 86_400_000),
    markdownTimeLimitMs: integer('MARKDOWN_TIME_LIMIT_MS', 1_000, 10, 60_000),
    hardening,
    webhooks: {
      allowedHosts: webhookAllowedHosts,
      timeoutMs: integer('WEBHOOK_TIMEOUT_MS', 5_000, 100, 60_000),
      retryLimit: integer('WEBHOOK_RETRY_LIMIT', 8, 0, 20),
      retryDelaySeconds: integer('WEBHOOK_RETRY_DELAY_SECONDS', 10, 1, 3_600),
      dispatchIntervalMs: integer('WEBHOOK_DISPATCH_INTERVAL_MS', 1_000, 50, 60_000),
      concurrency: webhookConcurrency,
      concurrencyPerTenant: webhookConcurrencyPerTenant,
      encryptionKey: webhookEncryptionKey,
    },
    llm,
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
