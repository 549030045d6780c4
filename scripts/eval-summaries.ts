/**
 * npm run eval:summaries — release summaries (docs/summaries.md) on rollup's real history: for the newest
 * releases of the dataset (../shared/datasets/rollup-history.jsonl.gz), our generated note is sent to the
 * configured model exactly as the generation job sends it, the answer is verified, and the report shows
 * how many sentences and rewordings passed, what was dropped and why, and ours beside the text rollup's
 * maintainers curated for that release (rollup-CHANGELOG.md.gz).
 *
 *   LLM_BASE_URL=http://127.0.0.1:11434/v1 LLM_MODEL=qwen2.5:7b-instruct npm run eval:summaries -- --releases 5
 *
 * Without LLM_BASE_URL it starts the test suite's stand-in server (test/helpers/fake-llm.ts: it echoes an
 * item per section and adds one invented claim, which verification must drop) on 127.0.0.1, so the whole
 * path runs anywhere in seconds: a smoke test, not a quality measure.
 * Options: --releases N (default 5), --out FILE (the report as Markdown; default stdout only).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadConfig, type LlmConfig } from '../src/config.js';
import { keyedItems, type NoteJson } from '../src/entries/release-edits.js';
import { generateReleases } from '../src/generation/engine/releases.js';
import { resolveSettings } from '../src/generation/settings.js';
import { LlmError, requestSummary } from '../src/generation/summaries/llm-client.js';
import { introductionOf, summaryItems } from '../src/generation/summaries/summarizer.js';
import { verifySummary, type VerifiedSummary } from '../src/generation/summaries/verify.js';
import type { CommitRecord } from '../src/git/commit-record.js';
import { echoAndInventResponder, FakeLlm } from '../test/helpers/fake-llm.js';
import { sharedPath } from './shared-dir.js';

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const releases = Number(option('releases') ?? 5);
if (!Number.isInteger(releases) || releases < 1) throw new Error('--releases must be a whole number ≥ 1');
const out = option('out');

const DATASETS = sharedPath('datasets');

/** The dataset's commits as ingestion would store them (co-authors and dependency changes left out: the engine does without). */
function readHistory(): CommitRecord[] {
  const text = gunzipSync(readFileSync(join(DATASETS, 'rollup-history.jsonl.gz'))).toString('utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const c = JSON.parse(line) as Omit<CommitRecord, 'coAuthors' | 'prNumber'>;
      const pr = /\(#(\d+)\)\s*$/.exec(c.message.split('\n', 1)[0]!);
      return {
        sha: c.sha,
        parents: c.parents,
        author: c.author,
        committer: c.committer,
        message: c.message,
        changes: c.changes,
        tags: c.tags,
        coAuthors: [],
        prNumber: pr ? Number(pr[1]) : null,
      };
    });
}

/** rollup's curated items per version: the sections above "Pull Requests", which lists every PR. */
function curated(): Map<string, string[]> {
  const text = gunzipSync(readFileSync(join(DATASETS, 'rollup-CHANGELOG.md.gz'))).toString('utf8');
  const byVersion = new Map<string, string[]>();
  let current: string[] | null = null;
  let reader = false;
  for (const line of text.split('\n')) {
    const release = /^## (\d+\.\d+\.\d+(?:-[\w.]+)?)\s*$/.exec(line);
    if (release) {
      byVersion.set(release[1]!, (current = []));
      continue;
    }
    const section = /^### (.+?)\s*$/.exec(line);
    if (section) reader = section[1] !== 'Pull Requests';
    else if (current && reader && /^[*-] /.test(line)) current.push(`${section ?? ''}${line.slice(2).trim()}`);
  }
  return byVersion;
}

let stand: FakeLlm | undefined;
let llm: LlmConfig;
const configured = loadConfig({ ...process.env, LOG_LEVEL: 'silent' }).llm;
if (configured) llm = configured;
else {
  stand = await new FakeLlm().start();
  stand.respond = echoAndInventResponder;
  llm = { baseUrl: stand.baseUrl, model: 'stand-in (echo + one invented claim)', apiKey: null, timeoutMs: 10_000, releasesPerRun: releases };
}

const started = performance.now();
const commits = readHistory();
const bySha = new Map(commits.map((c) => [c.sha, c]));
const notes = generateReleases(commits, resolveSettings({}))
  .filter((n) => n.tag !== null && n.package === null && n.generated_json.sections.length)
  .sort((a, b) => (b.released_at ?? '').localeCompare(a.released_at ?? ''))
  .slice(0, releases);
const theirs = curated();

const lines: string[] = [
  `# Release summaries on rollup's history`,
  '',
  `Model: ${llm.model} at ${stand ? 'the stand-in server (no LLM_BASE_URL)' : llm.baseUrl}.`,
  '',
];
let inventionKept = false;
const totals = { sentences: 0, sentencesKept: 0, rewordings: 0, rewordingsKept: 0, failed: 0 };
const quote = (text: string) => text.replace(/\n/g, ' ');

for (const note of notes) {
  const json = note.generated_json as NoteJson;
  const items = summaryItems(
    { items: keyedItems(json) },
    note.commit_shas.flatMap((sha) => {
      const c = bySha.get(sha);
      return c ? [{ message: c.message, prNumber: c.prNumber }] : [];
    }),
  );
  let verified: VerifiedSummary = { sentences: [], rewordings: [], rejected: [] };
  let error: string | null = null;
  const asked = performance.now();
  try {
    verified = verifySummary(await requestSummary(llm, { tag: note.tag, previousTag: note.previous_tag }, items, AbortSignal.timeout(llm.timeoutMs)), items);
  } catch (e) {
    if (!(e instanceof LlmError)) throw e;
    error = e.reason;
    totals.failed++;
  }
  const ms = Math.round(performance.now() - asked);
  const droppedSentences = verified.rejected.filter((r) => r.kind === 'sentence').length;
  const droppedRewordings = verified.rejected.filter((r) => r.kind === 'rewording').length;
  if (verified.sentences.some((x) => x.text.includes('CVE-2099-0001'))) inventionKept = true;
  totals.sentences += verified.sentences.length + droppedSentences;
  totals.sentencesKept += verified.sentences.length;
  totals.rewordings += verified.rewordings.length + droppedRewordings;
  totals.rewordingsKept += verified.rewordings.length;

  lines.push(`## ${note.tag} (${items.length} items, ${ms} ms)`, '');
  if (error) lines.push(`No summary: ${error}.`, '');
  lines.push(
    `Sentences passed verification: ${verified.sentences.length} of ${verified.sentences.length + droppedSentences}; rewordings: ${verified.rewordings.length} of ${verified.rewordings.length + droppedRewordings}.`,
    '',
    '**Ours** (introduction as readers would see it once accepted and published):',
    '',
    `> ${introductionOf(verified) ?? '(none)'}`,
    '',
  );
  for (const s of verified.sentences)
    lines.push(`- “${quote(s.text)}” ← ${s.items.map((id) => `\`${items.find((i) => i.id === id)?.text ?? id}\``).join(', ')}`);
  for (const r of verified.rewordings) lines.push(`- reworded \`${items.find((i) => i.id === r.id)?.text}\` → “${quote(r.text)}”`);
  for (const r of verified.rejected) lines.push(`- dropped ${r.kind}: “${quote(r.text)}” — ${r.reason}`);
  const human = theirs.get(note.version ?? '') ?? [];
  lines.push(
    '',
    `**rollup's curated text** for ${note.version}:`,
    '',
    ...(human.length ? human.map((h) => `- ${h}`) : ['- (no curated section: only the list of pull requests)']),
    '',
  );
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(0)}%` : '–');
lines.push(
  '## Totals',
  '',
  `${notes.length} releases, ${totals.failed} without an answer; sentences passed ${totals.sentencesKept} of ${totals.sentences} (${pct(totals.sentencesKept, totals.sentences)}), rewordings ${totals.rewordingsKept} of ${totals.rewordings} (${pct(totals.rewordingsKept, totals.rewordings)}); ${Math.round(performance.now() - started)} ms in all.`,
);
const report = lines.join('\n') + '\n';
process.stdout.write(report);
if (out) writeFileSync(out, report);
await stand?.stop();
// Against the stand-in the outcome is known: its echoes pass and its invented claim does not (CI's check).
if (stand && (inventionKept || !totals.sentencesKept || totals.failed)) {
  process.stderr.write('The stand-in run went wrong: an invented claim was kept, or nothing was.\n');
  process.exitCode = 1;
}
