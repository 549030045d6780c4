import { describe, expect, it } from 'vitest';
import { formatSoakReport, runSoak } from '../scripts/soak-traffic.js';

// The short form of `npm run soak` (PostgreSQL runs only): 5 s of mixed traffic against a real server.
describe('soak (short)', () => {
  it('serves mixed traffic with no 5xx, and every change becomes visible', async () => {
    const report = await runSoak({ adminUrl: process.env.TEST_DATABASE_URL!, durationMs: 5_000, readers: 4 });
    console.log(formatSoakReport(report));
    expect(report.requests).toBeGreaterThan(100);
    expect(report.fiveXx).toBe(0);
    expect(report.transportErrors).toBe(0);
    // Some of each expected answer: fresh pages, conditional hits, revoked keys refused.
    for (const status of ['200', '304', '401']) expect(report.byStatus[status], status).toBeGreaterThan(0);
    for (const kind of ['publish', 'unpublish', 'revoke'] as const) {
      expect(report.visibilityMs[kind].count, kind).toBeGreaterThan(0);
      expect(report.visibilityMs[kind].timeouts, kind).toBe(0);
    }
    // Signed webhook deliveries are part of the mix: each acknowledged, each redelivery recognised.
    expect(report.webhooks.acknowledged).toBeGreaterThan(0);
    expect(report.webhooks.redelivered).toBeGreaterThan(0);
    expect(report.webhooks.unexpected).toBe(0);
  }, 90_000);
});
