import { describe, expect, it } from 'vitest';
import { parseHeader, parseMessage } from './conventional.js';

describe('Conventional Commits 1.0 header', () => {
  it('reads type, scope, ! and description', () => {
    expect(parseHeader('feat(parser)!: drop node 14')).toEqual({ type: 'feat', scope: 'parser', breaking: true, description: 'drop node 14' });
    expect(parseHeader('fix: handle empty input')).toEqual({ type: 'fix', scope: null, breaking: false, description: 'handle empty input' });
    expect(parseHeader('refactor!: rename options')).toMatchObject({ type: 'refactor', breaking: true, scope: null });
  });

  it('keeps the type as written (callers compare case-insensitively)', () => {
    expect(parseHeader('FEAT(Api): x')).toMatchObject({ type: 'FEAT', scope: 'Api' });
  });

  it('requires the colon and the space after it', () => {
    expect(parseHeader('feat:no space')).toBeNull();
    expect(parseHeader('feat add thing')).toBeNull();
    expect(parseHeader('feat (scope): spaced scope')).toBeNull();
    expect(parseHeader('Revert "feat: x"')).toBeNull();
  });
});

describe('Conventional Commits 1.0 body and footers', () => {
  it('flags BREAKING CHANGE and BREAKING-CHANGE footers and keeps their text', () => {
    const a = parseMessage('feat: new config\n\nBody text.\n\nBREAKING CHANGE: `extends` key now\n  resolves relative paths\nRefs: #12');
    expect(a.breaking).toBe(true);
    expect(a.breakingDescription).toBe('`extends` key now\nresolves relative paths');
    expect(a.footers).toEqual([
      { token: 'BREAKING CHANGE', value: '`extends` key now\nresolves relative paths' },
      { token: 'Refs', value: '#12' },
    ]);
    expect(a.body).toBe('Body text.');
    expect(parseMessage('fix: x\n\nBREAKING-CHANGE: gone').breaking).toBe(true);
  });

  it('requires BREAKING CHANGE in upper case, as the specification does', () => {
    expect(parseMessage('fix: x\n\nbreaking change: nope').breaking).toBe(false);
  });

  it('reads `Token #value` footers and does not take prose for footers', () => {
    const m = parseMessage('fix: x\n\nSee the note: it matters.\nMore prose.\n\nCloses #42\nReviewed-by: Z');
    expect(m.footers).toEqual([
      { token: 'Closes', value: '42' },
      { token: 'Reviewed-by', value: 'Z' },
    ]);
    expect(m.body).toBe('See the note: it matters.\nMore prose.');
  });

  it('does not read a BREAKING CHANGE line in the middle of prose as a footer', () => {
    const m = parseMessage('docs: explain\n\nBREAKING CHANGE: is a footer token\n\nand this paragraph is prose');
    expect(m.breaking).toBe(false);
  });
});
