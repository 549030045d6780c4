// npm run soak: 60 s of mixed traffic against one server on PostgreSQL (SOAK_SECONDS to change it).
// Needs a PostgreSQL server: DATABASE_URL or TEST_DATABASE_URL (a scratch database is created there).
// Prints the report, writes it to docs/benchmarks.md ("Soak" section), exits 1 on any 5xx.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { formatSoakReport, runSoak } from './soak-traffic.js';

const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const seconds = Number(process.env.SOAK_SECONDS ?? 60);

const report = await runSoak({ adminUrl, durationMs: seconds * 1000, log: (line) => console.log(line) });
const text = formatSoakReport(report);
console.log(text);

const file = 'docs/benchmarks.md';
const section = `## Soak\n\n\`npm run soak\` on ${new Date().toISOString().slice(0, 10)} (${process.platform}, Node ${process.versions.node}; one server process, PostgreSQL, load generator on the same machine):\n\n\`\`\`\n${text}\n\`\`\`\n`;
const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
const updated = /## Soak\n[\s\S]*?(?=\n## |$)/.test(current)
  ? current.replace(/## Soak\n[\s\S]*?(?=\n## |$)/, section)
  : `${current.trimEnd()}\n\n${section}`;
writeFileSync(file, updated);

const lost = Object.values(report.visibilityMs).reduce((n, v) => n + v.timeouts, 0);
process.exitCode = report.fiveXx > 0 || report.transportErrors > 0 || lost > 0 || report.webhooks.unexpected > 0 ? 1 : 0;
