/**
 * Release summaries in the generation job (docs/summaries.md): after a run, the newest release notes
 * whose content has no summary yet are sent to the configured model, its answer is verified
 * (verify.ts), and what passes waits for the editor as a machine-written suggestion, or is accepted at
 * once under the project's `auto`. Nothing here writes what readers see: the entries service does, and
 * only through an accepted summary and a publish.
 */
import type { LlmConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../errors.js';
import type { EntriesService, SummaryCandidate } from '../../entries/entries.service.js';
import type { ProjectsService } from '../../projects/projects.service.js';
import { escapeMarkdown } from '../engine/render.js';
import { generationRepository } from '../generation.repository.js';
import { resolveSettings, type SettingsInput } from '../settings.js';
import { LlmError, requestSummary } from './llm-client.js';
import { verifySummary, wordingOf, type SummaryItem, type VerifiedSummary } from './verify.js';

const BODY_CHARS = 500;

export interface SummarizeOutcome {
  /** Notes a summary was written for (kept sentences or rewordings). */
  summarized: number;
  /** Notes whose request failed or kept nothing. */
  failed: number;
  /** Summaries accepted under `auto` (published when their note was). */
  accepted: number;
}

/** The untrusted sources of each item: its generated text, and the commit it came from when one is found. */
export function summaryItems(candidate: Pick<SummaryCandidate, 'items'>, commits: ReadonlyArray<{ message: string; prNumber: number | null }>): SummaryItem[] {
  const byPr = new Map<number, string>();
  const bySubject = new Map<string, string>();
  for (const c of commits) {
    const subject = c.message.split('\n', 1)[0]!.trim();
    // Ingestion records the number; a subject's own `(#N)` is the same reference (squash merges).
    const prNumber = c.prNumber ?? Number(/\(#(\d{1,10})\)\s*$/.exec(subject)?.[1] ?? NaN);
    if (Number.isFinite(prNumber) && !byPr.has(prNumber)) byPr.set(prNumber, c.message);
    if (!bySubject.has(subject)) bySubject.set(subject, c.message);
  }
  return candidate.items.map(({ key, section, item }) => {
    const pr = /^pr:(\d+)/.exec(key);
    const message = (pr ? byPr.get(Number(pr[1])) : undefined) ?? bySubject.get(wordingOf(item.text));
    const [title = null, ...rest] = message ? message.split('\n') : [];
    const body = rest.join('\n').trim();
    return {
      id: key,
      section,
      text: item.text,
      component: item.component,
      prTitle: title?.trim() || null,
      body: body ? body.slice(0, BODY_CHARS) : null,
    };
  });
}

/** The introduction as readers would see it: the kept sentences, escaped, rendered by code (no link or reference from the model). */
export function introductionOf(summary: VerifiedSummary): string | null {
  return summary.sentences.length ? summary.sentences.map((s) => escapeMarkdown(s.text)).join(' ') : null;
}

export function createSummarizer(
  db: Db,
  deps: {
    llm: LlmConfig;
    entries: Pick<EntriesService, 'summaryCandidates' | 'saveReleaseSummary' | 'acceptReleaseSummary'>;
    projects: Pick<ProjectsService, 'findById'>;
  },
) {
  const { llm, entries } = deps;

  async function summarizeNote(projectId: string, candidate: SummaryCandidate): Promise<{ kept: boolean }> {
    const { note } = candidate;
    const commits = await generationRepository.commitMessages(db, projectId, note.commit_shas);
    const items = summaryItems(candidate, commits);
    let verified: VerifiedSummary = { sentences: [], rewordings: [], rejected: [] };
    let error: string | null = null;
    if (!items.length) error = 'the note lists no changes';
    else {
      try {
        // The whole budget of this release: connection, the model's time, the answer read.
        const answer = await requestSummary(llm, { tag: note.tag, previousTag: note.previous_tag }, items, AbortSignal.timeout(llm.timeoutMs));
        verified = verifySummary(answer, items);
        if (!verified.sentences.length && !verified.rewordings.length) error = 'nothing the model wrote passed verification';
      } catch (e) {
        if (!(e instanceof LlmError)) throw e;
        error = e.reason;
      }
    }
    await entries.saveReleaseSummary(projectId, note.id, {
      fingerprint: candidate.fingerprint,
      model: llm.model.slice(0, 200),
      status: error ? 'failed' : 'pending',
      summary: { introduction: introductionOf(verified), sentences: verified.sentences, rewordings: verified.rewordings, rejected: verified.rejected },
      error,
    });
    return { kept: !error };
  }

  return {
    /** Summarizes the project's newest notes that have none for their content yet, when its setting asks for it. */
    async summarizeProject(projectId: string): Promise<SummarizeOutcome> {
      const outcome: SummarizeOutcome = { summarized: 0, failed: 0, accepted: 0 };
      const project = await deps.projects.findById(projectId);
      if (!project) return outcome;
      let policy: string;
      try {
        policy = resolveSettings((project.generation_settings ?? {}) as SettingsInput).summaries;
      } catch {
        return outcome;
      }
      if (policy === 'off') return outcome;
      for (const candidate of await entries.summaryCandidates(projectId, llm.releasesPerRun)) {
        const { kept } = await summarizeNote(projectId, candidate);
        if (!kept) {
          outcome.failed++;
          continue;
        }
        outcome.summarized++;
        if (policy !== 'auto') continue;
        try {
          if ((await entries.acceptReleaseSummary(projectId, candidate.note.tag!, null, { auto: true })) !== 'held') outcome.accepted++;
        } catch (error) {
          // An editor (or a run) holds the note: the summary waits for the editor like under `review`.
          if (!(error instanceof AppError) || error.code !== 'conflict') throw error;
        }
      }
      return outcome;
    },
  };
}

export type Summarizer = ReturnType<typeof createSummarizer>;
