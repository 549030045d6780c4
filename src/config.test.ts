import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults to the embedded database in ./data on port 3000', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'pglite', dataDir: expect.stringMatching(/\/data$/) });
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.identityHeader).toEqual({ enabled: false, gatewaySecret: null });
    expect(config.demoSeed).toBe(true);
  });

  it('reads the dashboard settings: sign-up closed and two-week sessions by default', () => {
    expect(loadConfig({})).toMatchObject({ signupOpen: false, sessionTtlHours: 336 });
    expect(loadConfig({ SIGNUP_OPEN: 'yes', SESSION_TTL_HOURS: '12' })).toMatchObject({ signupOpen: true, sessionTtlHours: 12 });
    expect(() => loadConfig({ SIGNUP_OPEN: 'sometimes', SESSION_TTL_HOURS: '0' })).toThrow(/SIGNUP_OPEN must be true or false[\s\S]*SESSION_TTL_HOURS must be an integer from 1 to 8760/);
  });

  it('hashes passwords at scrypt N = 2^17 by default, and refuses a cheaper cost in production', () => {
    expect(loadConfig({}).passwordScryptLogN).toBe(17);
    expect(loadConfig({ NODE_ENV: 'test', PASSWORD_SCRYPT_LOG_N: '12' }).passwordScryptLogN).toBe(12);
    expect(() => loadConfig({ NODE_ENV: 'production', PASSWORD_SCRYPT_LOG_N: '12' })).toThrow(/PASSWORD_SCRYPT_LOG_N must be at least 17 in production/);
  });

  it('selects PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/x', DATABASE_POOL_MAX: '20' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/x', readUrl: null, poolMax: 20, preparedStatements: true });
    const unprepared = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/x', DATABASE_PREPARED_STATEMENTS: 'false' });
    expect(unprepared.database).toMatchObject({ kind: 'postgres', preparedStatements: false });
  });

  it('lets the heap grow to twice its live data unless told otherwise', () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(100);
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: '-5' })).toThrow(/HEAP_GROWTH_PERCENT must be an integer from 0 to 1000/);
  });

  it('is frozen, deeply', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.database)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow();
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        NODE_ENV: 'staging',
        LOG_LEVEL: 'loud',
        DATABASE_URL: 'mysql://x',
        PUBLIC_URL: 'not a url',
        DEMO_SEED: 'maybe',
        IDENTITY_HEADER_ENABLED: 'true',
        IDENTITY_GATEWAY_SECRET: 'short',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'NODE_ENV', 'LOG_LEVEL', 'DATABASE_URL', 'PUBLIC_URL', 'DEMO_SEED', 'IDENTITY_GATEWAY_SECRET']) {
      expect(problems).toContain(name);
    }
    expect((error as ConfigError).problems).toHaveLength(7);
  });

  it('keeps the gateway secret only when the identity header is enabled', () => {
    const secret = 's'.repeat(32);
    expect(loadConfig({ IDENTITY_GATEWAY_SECRET: secret }).identityHeader.gatewaySecret).toBeNull();
    expect(loadConfig({ IDENTITY_HEADER_ENABLED: 'yes', IDENTITY_GATEWAY_SECRET: secret }).identityHeader).toEqual({
      enabled: true,
      gatewaySecret: secret,
    });
  });
  it('reads the GitHub App settings, with PEM newlines written as \\n, and defaults the API to api.github.com', () => {
    const pem = '-----BEGIN RSA PRIVATE KEY-----\\nMIIabc\\n-----END RSA PRIVATE KEY-----';
    const config = loadConfig({ GITHUB_APP_ID: '42', GITHUB_APP_PRIVATE_KEY: pem, GITHUB_WEBHOOK_SECRET: 'w' });
    expect(config.github).toEqual({
      appId: 42,
      privateKey: '-----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY-----',
      webhookSecret: 'w',
      apiUrl: 'https://api.github.com',
      installUrl: null,
      clientId: null,
      clientSecret: null,
      webUrl: 'https://github.com',
      trustedAccounts: [],
      timeoutMs: 10_000,
    });
    expect(loadConfig({ GITHUB_TRUSTED_ACCOUNTS: ' Acme, me ,', GITHUB_WEB_URL: 'https://ghe.example.com/' }).github).toMatchObject({
      trustedAccounts: ['acme', 'me'],
      webUrl: 'https://ghe.example.com',
    });
    expect(loadConfig({}).github).toMatchObject({ appId: null, privateKey: null, webhookSecret: null });
    expect(loadConfig({ DATA_DIR: '/srv/changelog' }).reposDir).toBe('/srv/changelog/repos');
    expect(loadConfig({}).workerInProcess).toBe(true);
    expect(loadConfig({ WORKER_IN_PROCESS: 'false' }).workerInProcess).toBe(false);
    expect(loadConfig({}).generationTimeBudgetMs).toBe(300_000);
    expect(loadConfig({ GENERATION_TIME_BUDGET_MS: '5000' }).generationTimeBudgetMs).toBe(5000);
    expect(() => loadConfig({ GENERATION_TIME_BUDGET_MS: '0' })).toThrow(/GENERATION_TIME_BUDGET_MS must be an integer from 1/);
    expect(loadConfig({}).markdownTimeLimitMs).toBe(1_000);
    expect(loadConfig({ MARKDOWN_TIME_LIMIT_MS: '250' }).markdownTimeLimitMs).toBe(250);
    expect(() => loadConfig({ MARKDOWN_TIME_LIMIT_MS: '5' })).toThrow(/MARKDOWN_TIME_LIMIT_MS must be an integer from 10/);
  });

  it('lists every GitHub setting problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        GITHUB_APP_ID: 'abc',
        GITHUB_APP_PRIVATE_KEY: '-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----',
        GITHUB_API_URL: 'ftp://github.example.com',
        WORKER_IN_PROCESS: 'sometimes',
      });
    } catch (e) {
      error = e;
    }
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['GITHUB_APP_ID', 'GITHUB_APP_PRIVATE_KEY', 'GITHUB_API_URL', 'WORKER_IN_PROCESS']) expect(problems).toContain(name);
  });
});

describe('loadConfig: operations settings', () => {
  it('defaults to in-process rate limits, no trusted proxy and no /metrics', () => {
    const { hardening } = loadConfig({});
    expect(hardening.trustedProxies).toEqual([]);
    expect(hardening.rateLimit).toMatchObject({ enabled: true, redisUrl: null, publicMax: 300, authenticatedMax: 600 });
    expect(hardening.metricsToken).toBeNull();
    expect(hardening.underPressure.maxEventLoopUtilization).toBe(0);
  });

  it('reads proxies, Redis, limits and the metrics token', () => {
    const { hardening } = loadConfig({
      TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.1 ,::1',
      REDIS_URL: 'redis://cache:6379',
      RATE_LIMIT_PUBLIC_MAX: '5',
      METRICS_TOKEN: 't'.repeat(16),
      UNDER_PRESSURE_MAX_EVENT_LOOP_UTILIZATION: '95',
    });
    expect(hardening.trustedProxies).toEqual(['10.0.0.0/8', '192.168.1.1', '::1']);
    expect(hardening.rateLimit.redisUrl).toBe('redis://cache:6379');
    expect(hardening.rateLimit.publicMax).toBe(5);
    expect(hardening.metricsToken).toBe('t'.repeat(16));
    expect(hardening.underPressure.maxEventLoopUtilization).toBeCloseTo(0.95);
  });

  it('names every bad operations setting at once', () => {
    let error: unknown;
    try {
      loadConfig({
        TRUSTED_PROXIES: 'proxy.example',
        REDIS_URL: 'http://cache',
        METRICS_TOKEN: 'short',
        RATE_LIMIT_PUBLIC_MAX: '0',
        DATABASE_TIMEOUT_MS: 'soon',
      });
    } catch (e) {
      error = e;
    }
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['TRUSTED_PROXIES', 'REDIS_URL', 'METRICS_TOKEN', 'RATE_LIMIT_PUBLIC_MAX', 'DATABASE_TIMEOUT_MS']) {
      expect(problems).toContain(name);
    }
  });

  it('defaults outbound webhooks to public https only, 5 s timeouts and 8 retries from 10 s', () => {
    expect(loadConfig({}).webhooks).toEqual({
      allowedHosts: [],
      timeoutMs: 5000,
      retryLimit: 8,
      retryDelaySeconds: 10,
      dispatchIntervalMs: 1000,
      concurrency: 4,
      concurrencyPerTenant: 3,
      encryptionKey: null,
    });
    const config = loadConfig({ WEBHOOK_ALLOWED_HOSTS: ' 127.0.0.1, 10.0.0.0/8 ,Hooks.Internal,[::1]', WEBHOOK_ENCRYPTION_KEY: 'k'.repeat(32) });
    expect(config.webhooks.allowedHosts).toEqual(['127.0.0.1', '10.0.0.0/8', 'hooks.internal', '[::1]']);
    expect(config.webhooks.encryptionKey).toBe('k'.repeat(32));
  });

  it('names every bad webhook setting at once', () => {
    let error: unknown;
    try {
      loadConfig({
        WEBHOOK_ALLOWED_HOSTS: 'http://hooks.example',
        WEBHOOK_ENCRYPTION_KEY: 'short',
        WEBHOOK_TIMEOUT_MS: '0',
        WEBHOOK_RETRY_LIMIT: 'many',
        WEBHOOK_RETRY_DELAY_SECONDS: '0',
        WEBHOOK_DISPATCH_INTERVAL_MS: '1',
      });
    } catch (e) {
      error = e;
    }
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['WEBHOOK_ALLOWED_HOSTS', 'WEBHOOK_ENCRYPTION_KEY', 'WEBHOOK_TIMEOUT_MS', 'WEBHOOK_RETRY_LIMIT', 'WEBHOOK_RETRY_DELAY_SECONDS', 'WEBHOOK_DISPATCH_INTERVAL_MS']) {
      expect(problems).toContain(name);
    }
  });
});

describe('loadConfig: webhook delivery slots', () => {
  it('leaves other tenants a slot by default, and refuses a tenant share over the whole', () => {
    expect(loadConfig({ WEBHOOK_CONCURRENCY: '1' }).webhooks).toMatchObject({ concurrency: 1, concurrencyPerTenant: 1 });
    expect(loadConfig({ WEBHOOK_CONCURRENCY: '8', WEBHOOK_CONCURRENCY_PER_TENANT: '2' }).webhooks).toMatchObject({ concurrency: 8, concurrencyPerTenant: 2 });
    expect(() => loadConfig({ WEBHOOK_CONCURRENCY: '2', WEBHOOK_CONCURRENCY_PER_TENANT: '3' })).toThrow(/WEBHOOK_CONCURRENCY_PER_TENANT must be at most WEBHOOK_CONCURRENCY \(2\)/);
  });
});

describe('loadConfig: language model for release summaries', () => {
  it('is off unless a server is named, and reads the model, key and budgets', () => {
    expect(loadConfig({}).llm).toBeNull();
    const config = loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1/', LLM_MODEL: 'qwen2.5', LLM_API_KEY: 'sk-secret', LLM_TIMEOUT_MS: '5000' });
    expect(config.llm).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5', apiKey: 'sk-secret', timeoutMs: 5000, releasesPerRun: 3 });
    expect(Object.isFrozen(config.llm)).toBe(true);
  });

  it('lists every problem: a URL that is none, a server without a model, a bad timeout', () => {
    const attempt = () => loadConfig({ LLM_BASE_URL: 'ftp://x', LLM_TIMEOUT_MS: '5', LLM_RELEASES_PER_RUN: '0' });
    expect(attempt).toThrow(/LLM_BASE_URL must be an absolute http\(s\) URL/);
    expect(attempt).toThrow(/LLM_TIMEOUT_MS must be an integer from 100/);
    expect(attempt).toThrow(/LLM_RELEASES_PER_RUN must be an integer from 1/);
    expect(() => loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:8080/v1' })).toThrow(/LLM_MODEL must name the model when LLM_BASE_URL is set/);
    expect(() => loadConfig({ LLM_MODEL: 'm' })).toThrow(/LLM_MODEL needs LLM_BASE_URL/);
    // Credentials belong in LLM_API_KEY: in the URL they would reach error messages.
    expect(() => loadConfig({ LLM_BASE_URL: 'https://user:pass@llm.example.com/v1', LLM_MODEL: 'm' })).toThrow(/LLM_BASE_URL must not hold credentials/);
  });
});

describe('loadConfig: repository links', () => {
  it('allows no local path from the dashboard and polls every 300 s by default', () => {
    expect(loadConfig({}).repoLinks).toEqual({ pathsAllowed: [], pathsOrgs: [], pollIntervalSeconds: 300, ingestConcurrency: 3, ingestConcurrencyPerTenant: 2 });
  });

  it('reads the allowed directories and the poll interval (0 disables polling)', () => {
    const config = loadConfig({ REPO_PATHS_ALLOWED: ' /srv/git, /home/git/repos/ ', REPO_POLL_INTERVAL_SECONDS: '0' });
    expect(config.repoLinks).toMatchObject({ pathsAllowed: ['/srv/git', '/home/git/repos'], pathsOrgs: [], pollIntervalSeconds: 0 });
  });

  it('reads the organizations whose owners may link local paths, and refuses what is no slug', () => {
    expect(loadConfig({ REPO_PATHS_ORGS: ' Acme, platform-team ' }).repoLinks.pathsOrgs).toEqual(['acme', 'platform-team']);
    expect(() => loadConfig({ REPO_PATHS_ORGS: 'acme,org:evil' })).toThrow(/REPO_PATHS_ORGS must list organization slugs, comma-separated \(got "org:evil"\)/);
  });

  it('runs a few ingests at once, leaving one tenant every slot but one, and reads an explicit share', () => {
    expect(loadConfig({ INGEST_CONCURRENCY: '1' }).repoLinks).toMatchObject({ ingestConcurrency: 1, ingestConcurrencyPerTenant: 1 });
    expect(loadConfig({ INGEST_CONCURRENCY: '8', INGEST_CONCURRENCY_PER_TENANT: '3' }).repoLinks).toMatchObject({ ingestConcurrency: 8, ingestConcurrencyPerTenant: 3 });
    expect(() => loadConfig({ INGEST_CONCURRENCY: '2', INGEST_CONCURRENCY_PER_TENANT: '3' })).toThrow(/INGEST_CONCURRENCY_PER_TENANT must be at most INGEST_CONCURRENCY \(2\)/);
    expect(() => loadConfig({ INGEST_CONCURRENCY: '0' })).toThrow(/INGEST_CONCURRENCY must be an integer from 1 to 64/);
  });

  it('gives every git command ten minutes and a one-minute stall limit by default, at least a second each', () => {
    expect(loadConfig({}).git).toEqual({ timeoutMs: 600_000, stallMs: 60_000 });
    expect(loadConfig({ GIT_TIMEOUT_MS: '30000', GIT_STALL_TIMEOUT_MS: '5000' }).git).toEqual({ timeoutMs: 30_000, stallMs: 5_000 });
    expect(() => loadConfig({ GIT_TIMEOUT_MS: '999', GIT_STALL_TIMEOUT_MS: '10' })).toThrow(/GIT_TIMEOUT_MS must be an integer from 1000[\s\S]*GIT_STALL_TIMEOUT_MS must be an integer from 1000/);
  });

  it('refuses relative directories and a bad interval', () => {
    expect(() => loadConfig({ REPO_PATHS_ALLOWED: 'repos', REPO_POLL_INTERVAL_SECONDS: '-5' })).toThrow(
      /REPO_PATHS_ALLOWED must list absolute directories[\s\S]*REPO_POLL_INTERVAL_SECONDS/,
    );
  });
});
