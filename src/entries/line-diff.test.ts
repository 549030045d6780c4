import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff.js';

const show = (before: string, after: string) => lineDiff(before, after).map((l) => `${{ same: ' ', removed: '-', added: '+' }[l.op]}${l.text}`);

describe('lineDiff', () => {
  it('marks the lines a revision adds and removes, keeping the rest in order', () => {
    expect(show('# Week\n- a\n- b', '# Week\n- a\n- c\n- b')).toEqual([' # Week', ' - a', '+- c', ' - b']);
    expect(show('x\ny\nz', 'x\nz')).toEqual([' x', '-y', ' z']);
    expect(show('', 'new')).toEqual(['+new']);
    expect(show('same', 'same')).toEqual([' same']);
  });

  it('shows a middle too large to compare as removed then added, in bounded time', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `a${i}`).join('\n');
    const after = Array.from({ length: 3000 }, (_, i) => `b${i}`).join('\n');
    const started = Date.now();
    const diff = lineDiff(before, after);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(diff.filter((l) => l.op === 'removed')).toHaveLength(3000);
    expect(diff.filter((l) => l.op === 'added')).toHaveLength(3000);
  });
});
