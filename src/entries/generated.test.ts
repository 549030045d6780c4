import { describe, expect, it } from 'vitest';
import { decideRelease, place, type PublishingPolicy, type StoredGeneratedRelease } from './generated.js';

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
  const note = (fields: Partial<StoredGeneratedRelease> = {}): StoredGeneratedRelease => ({ id: 'n', key: 'v1.0.0', status: 'published', fingerprint: 'f', ...fields });

  const fresh = { record: '{}', historyAt: null };
  it('stores new notes under the release policy, keeps the status of changed ones, brings back the ones generation archived', () => {
    expect(decideRelease({ kind: 'insert', produced: fresh }, policy())).toEqual({ action: 'insert', status: 'draft', publishedAt: null, historyAt: null });
    expect(decideRelease({ kind: 'insert', produced: fresh }, policy({ publish: { release: 'auto' } }))).toEqual({ action: 'insert', status: 'published', publishedAt: null, historyAt: null });
    expect(decideRelease({ kind: 'update', stored: note(), produced: fresh }, policy())).toEqual({ action: 'update' });
    expect(decideRelease({ kind: 'update', stored: note({ status: 'archived', fingerprint: null }), produced: fresh }, policy())).toEqual({
      action: 'update',
      restore: 'draft',
    });
    expect(decideRelease({ kind: 'archive', stored: note() }, policy())).toEqual({ action: 'archive' });
  });

  it('places a release whose tag reached the branch before the link as history, whatever the release policy', () => {
    const history = { record: '{}', historyAt: JULY };
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
