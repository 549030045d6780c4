import { describe, expect, it } from 'vitest';
import { slugProblem } from './slug.js';

describe('slugProblem', () => {
  it.each(['ab', 'demo', 'my-project-2', 'a1', 'x'.repeat(64), '0-0'])('accepts %s', (slug) => {
    expect(slugProblem(slug)).toBeNull();
  });

  it.each(['a', 'x'.repeat(65), 'Demo', 'my--project', '-demo', 'demo-', 'my_project', 'my project', 'dé', ''])(
    'rejects %j',
    (slug) => {
      expect(slugProblem(slug)).toEqual(expect.any(String));
    },
  );
});
