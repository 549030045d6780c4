import { describe, expect, it } from 'vitest';
import { decideEntry, type GeneratedContent, type Proposal, type PublishingPolicy, type StoredGeneratedEntry } from '../entries/generated.js';
import { reconcile, Reconciler } from './reconcile.js';

const stored = (key: string, fields: Partial<StoredGeneratedEntry> = {}): StoredGeneratedEntry => ({
  id: `id-${key}`,
  key,
  entry_type: 'commit',
  status: 'draft',
  fingerprint: `fp-${key}`,
  live_fingerprint: `fp-${key}`,
  revision: null,
  edited_at: null,
  pending_regeneration: false,
  version_label: null,
  commit_shas: [],
  component_tags: [],
  period_start: null,
  period_end: null,
  ...fields,
});
const produced = (key: string, fingerprint = `fp-${key}`) => ({ key, fingerprint });

const POLICY: PublishingPolicy = { publish: { commit: 'manual', weekly: 'auto' }, history: 'publish', historySince: null };
const content = (entryType: GeneratedContent['entryType'] = 'commit'): GeneratedContent => ({ entryType, record: '{}', fingerprint: 'fp-new', commitId: null, historyAt: null });
/** A proposal as the entries service gets it (with content), and what it decides. */
const decided = (proposal: Proposal<StoredGeneratedEntry, unknown>) =>
  decideEntry(proposal.kind === 'archive' ? proposal : { ...proposal, produced: content() }, POLICY);

describe('reconcile: what the engine produced against what is stored', () => {
  it('proposes a new entry for insertion', () => {
    const { proposals, unchanged } = reconcile([], [produced('commit:a')]);
    expect(proposals).toEqual([{ kind: 'insert', produced: produced('commit:a') }]);
    expect(unchanged).toBe(0);
    expect(decided(proposals[0]!)).toEqual({ action: 'insert', status: 'draft', publishedAt: null, history: false, historyAt: null });
  });

  it('proposes nothing for an unchanged entry, edited or not, in any status', () => {
    const entries = [stored('commit:a'), stored('commit:b', { edited_at: new Date() }), stored('commit:c', { status: 'archived' })];
    const { proposals, unchanged } = reconcile(entries, [produced('commit:a'), produced('commit:b'), produced('commit:c')]);
    expect(proposals).toEqual([]);
    expect(unchanged).toBe(3);
  });

  it('proposes the changed generated content of an untouched entry as an update, which rewrites it', () => {
    const entry = stored('commit:a');
    const { proposals } = reconcile([entry], [produced('commit:a', 'fp-new')]);
    expect(proposals).toEqual([{ kind: 'update', stored: entry, produced: produced('commit:a', 'fp-new') }]);
    expect(decided(proposals[0]!)).toEqual({ action: 'update' });
  });

  it('proposes changed content under a person\'s edit as an update too: the entries service keeps the edit and flags it, once', () => {
    const edited = stored('commit:a', { edited_at: new Date() });
    const flagged = stored('commit:b', { edited_at: new Date(), pending_regeneration: true });
    const { proposals } = reconcile([edited, flagged], [produced('commit:a', 'fp-new'), produced('commit:b', 'fp-new')]);
    expect(proposals.map((p) => p.kind)).toEqual(['update', 'update']);
    expect(proposals.map(decided)).toEqual([
      { action: 'keep-edit', flag: true },
      { action: 'keep-edit', flag: false },
    ]);
  });

  it('proposes an entry no longer produced for archiving (an edited one is kept and flagged instead); archived ones are left alone', () => {
    const gone = stored('commit:a');
    const editedGone = stored('commit:b', { edited_at: new Date() });
    const { proposals } = reconcile([gone, editedGone, stored('commit:c', { status: 'archived', fingerprint: null })], []);
    expect(proposals).toEqual([
      { kind: 'archive', stored: gone },
      { kind: 'archive', stored: editedGone },
    ]);
    expect(proposals.map(decided)).toEqual([{ action: 'archive' }, { action: 'keep-edit', flag: true }]);
  });

  it('archives only what the run speaks for (an incremental run: the periods it touched)', () => {
    const { proposals } = reconcile([stored('commit:a'), stored('weekly:2024-06-03', { entry_type: 'weekly' })], [], (e) => e.entry_type === 'weekly');
    expect(proposals.map((p) => p.kind === 'archive' && p.stored.key)).toEqual(['weekly:2024-06-03']);
  });

  it('proposes an entry generation archived and produces again as an update, which brings it back as a draft (published under an auto policy)', () => {
    const back = stored('commit:a', { status: 'archived', fingerprint: null });
    const { proposals } = reconcile([back], [produced('commit:a')]);
    expect(proposals).toEqual([{ kind: 'update', stored: back, produced: produced('commit:a') }]);
    expect(decided(proposals[0]!)).toEqual({ action: 'update', restore: { status: 'draft', publishedAt: null } });
    const weekly = decideEntry({ kind: 'update', stored: { ...back, entry_type: 'weekly' }, produced: content('weekly') }, POLICY);
    expect(weekly).toEqual({ action: 'update', restore: { status: 'published', publishedAt: null } });
    // One a person archived keeps its fingerprint: rewritten, still archived.
    const byPerson = stored('commit:b', { status: 'archived' });
    expect(decided(reconcile([byPerson], [produced('commit:b', 'fp-new')]).proposals[0]!)).toEqual({ action: 'update' });
  });

  it('streams: batches as they come, then what none of them produced', () => {
    const reconciler = new Reconciler([stored('commit:a'), stored('commit:b'), stored('commit:c')]);
    expect(reconciler.produced([produced('commit:a'), produced('commit:d')]).map((p) => p.kind)).toEqual(['insert']);
    expect(reconciler.produced([produced('commit:b', 'fp-new')]).map((p) => p.kind)).toEqual(['update']);
    expect(reconciler.unchanged).toBe(1);
    expect(reconciler.vanished().map((p) => p.stored.key)).toEqual(['commit:c']);
  });
});
