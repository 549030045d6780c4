import { describe, expect, it } from 'vitest';
import { decideEntry, decideRelease, place, type GeneratedContent, type PublishingPolicy, type StoredGeneratedEntry, type StoredGeneratedRelease } from './generated.js';

const policy = (fields: Partial<PublishingPolicy> = {}): PublishingPolicy => ({
  publish: { commit: 'manual', monthly: 'auto', release: 'manual' },
  history: 'publish',
  historySince: null,
  ...fields,
});
const JULY = Date.parse('2024-07-10T10:00:00Z');

describe('place: where new generated content goes', () => {
  it('new work follows its type\'s publishing policy', () => {
    expect(place('commit', null, policy())).toEqual({ store: true, history: false, status: 'draft', publishedAt: null, historyAt: null });
    expect(place('monthly', null, policy())).toEqual({ store: true, history: false, status: 'published', publishedAt: null, historyAt: null });
  });

  it('history follows the history policy, dated when its change reached the branch', () => {
    expect(place('commit', JULY, policy())).toEqual({ store: true, history: true, status: 'published', publishedAt: new Date(JULY), historyAt: new Date(JULY) });
    expect(place('monthly', JULY, policy({ history: 'draft' }))).toEqual({ store: true, history: true, status: 'draft', publishedAt: null, historyAt: new Date(JULY) });
    expect(place('commit', JULY, policy({ history: 'skip' }))).toEqual({ store: false });
    expect(place('commit', JULY, policy({ historySince: '2024-08-01T00:00:00Z' }))).toEqual({ store: false });
    expect(place('commit', JULY, policy({ historySince: '2024-07-01T00:00:00Z' }))).toMatchObject({ store: true, status: 'published' });
  });
});

describe('decideRelease', () => {
  const note = (fields: Partial<StoredGeneratedRelease> = {}): StoredGeneratedRelease => ({ id: 'n', key: 'v1.0.0', status: 'draft', fingerprint: 'f', live_fingerprint: 'f', revision: null, ...fields });

  const fresh = { record: '{}', fingerprint: 'g', historyAt: null };
  it('stores new notes under the release policy, rewrites changed drafts, brings back the ones generation archived', () => {
    expect(decideRelease({ kind: 'insert', produced: fresh }, policy())).toEqual({ action: 'insert', status: 'draft', publishedAt: null, historyAt: null });
    expect(decideRelease({ kind: 'insert', produced: fresh }, policy({ publish: { release: 'auto' } }))).toEqual({ action: 'insert', status: 'published', publishedAt: null, historyAt: null });
    expect(decideRelease({ kind: 'update', stored: note(), produced: fresh }, policy())).toEqual({ action: 'update' });
    expect(decideRelease({ kind: 'update', stored: note({ status: 'archived', fingerprint: null }), produced: fresh }, policy())).toEqual({
      action: 'update',
      restore: 'draft',
    });
    expect(decideRelease({ kind: 'archive', stored: note() }, policy())).toEqual({ action: 'archive' });
  });

  it('an edited published note takes new content as a pending revision whatever the policy; an edited draft is rewritten (edits applied by the service)', () => {
    const edited = note({ status: 'published', edited: true });
    expect(decideRelease({ kind: 'update', stored: edited, produced: fresh }, policy())).toEqual({ action: 'revise' });
    expect(decideRelease({ kind: 'update', stored: edited, produced: fresh }, policy({ publish: { release: 'auto' } }))).toEqual({ action: 'revise' });
    expect(decideRelease({ kind: 'update', stored: note({ edited: true }), produced: fresh }, policy({ publish: { release: 'auto' } }))).toEqual({ action: 'update' });
    expect(decideRelease({ kind: 'archive', stored: edited }, policy())).toEqual({ action: 'archive' });
  });

  it('places a release whose tag reached the branch before the link as history, whatever the release policy', () => {
    const history = { record: '{}', fingerprint: 'g', historyAt: JULY };
    expect(decideRelease({ kind: 'insert', produced: history }, policy())).toEqual({ action: 'insert', status: 'published', publishedAt: new Date(JULY), historyAt: new Date(JULY) });
    expect(decideRelease({ kind: 'insert', produced: history }, policy({ history: 'draft', publish: { release: 'auto' } }))).toEqual({
      action: 'insert',
      status: 'draft',
      publishedAt: null,
      historyAt: new Date(JULY),
    });
    expect(decideRelease({ kind: 'insert', produced: history }, policy({ history: 'skip' }))).toEqual({ action: 'skip' });
  });
});

describe('revisions: public content changes only by a publish', () => {
  const entry = (fields: Partial<StoredGeneratedEntry> = {}): StoredGeneratedEntry => ({
    id: 'e', key: 'weekly:2024-W02', entry_type: 'weekly', status: 'published', fingerprint: 'f', live_fingerprint: 'f', revision: null,
    edited_at: null, pending_regeneration: false, version_label: null, commit_shas: [], component_tags: [], period_start: null, period_end: null,
    ...fields,
  });
  const produced = (fingerprint: string): GeneratedContent => ({ entryType: 'weekly', record: '{}', fingerprint, commitId: null, historyAt: null });
  const manual = policy({ publish: { weekly: 'manual', release: 'manual' } });
  const auto = policy({ publish: { weekly: 'auto', release: 'auto' } });

  it('keeps a published entry and proposes its new content as a pending revision under manual; publishes it at once under auto', () => {
    expect(decideEntry({ kind: 'update', stored: entry(), produced: produced('g') }, manual)).toEqual({ action: 'revise' });
    expect(decideEntry({ kind: 'update', stored: entry(), produced: produced('g') }, auto)).toEqual({ action: 'update' });
    // A draft is not public: rewritten in place whatever the policy.
    expect(decideEntry({ kind: 'update', stored: entry({ status: 'draft' }), produced: produced('g') }, manual)).toEqual({ action: 'update' });
  });

  it('drops a revision once generation comes back to what is published', () => {
    const waiting = entry({ fingerprint: 'g', revision: 'pending' });
    expect(decideEntry({ kind: 'update', stored: waiting, produced: produced('f') }, manual)).toEqual({ action: 'drop-revision' });
    expect(decideEntry({ kind: 'update', stored: waiting, produced: produced('h') }, manual)).toEqual({ action: 'revise' });
  });

  it("never proposes over a person's edit", () => {
    expect(decideEntry({ kind: 'update', stored: entry({ edited_at: new Date() }), produced: produced('g') }, manual)).toEqual({ action: 'keep-edit', flag: true });
  });

  it('treats a published release note the same way', () => {
    const note: StoredGeneratedRelease = { id: 'n', key: 'release:v1', status: 'published', fingerprint: 'f', live_fingerprint: 'f', revision: null };
    expect(decideRelease({ kind: 'update', stored: note, produced: { record: '{}', fingerprint: 'g', historyAt: null } }, manual)).toEqual({ action: 'revise' });
    expect(decideRelease({ kind: 'update', stored: note, produced: { record: '{}', fingerprint: 'g', historyAt: null } }, auto)).toEqual({ action: 'update' });
  });
});
