import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.js';

describe('changelog backup / restore on PostgreSQL', () => {
  it.each([
    ['backup', '--out', '/nonexistent/x.tar.gz'],
    ['restore', '/nonexistent/x.tar.gz'],
  ])('%s points to pg_dump / pg_restore instead of touching anything', async (...args) => {
    let stderr = '';
    const code = await main(['node', 'changelog', ...args, '--json'], {
      stdout: () => {},
      stderr: (t) => (stderr += t),
      env: { NODE_ENV: 'test', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
    });
    expect(code).toBe(1);
    expect(JSON.parse(stderr)).toMatchObject({ code: 'invalid_request', error: expect.stringMatching(/pg_dump.*pg_restore/) });
  });
});
