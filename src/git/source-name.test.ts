import { describe, expect, it } from 'vitest';
import { describeSource, redactSourcesIn, redactSourceUrl } from './source-name.js';

describe('redactSourceUrl', () => {
  it.each([
    ['https://deploy:TOKEN@git.example.com/team/app.git', 'https://git.example.com/team/app.git'],
    ['http://TOKEN@127.0.0.1:8080/app.git', 'http://127.0.0.1:8080/app.git'],
    ['https://git.example.com/app.git?private_token=TOKEN#TOKEN', 'https://git.example.com/app.git'],
    ['https://a@b:TOKEN@git.example.com/app.git', 'https://git.example.com/app.git'],
    ['ssh://git:TOKEN@git.example.com:2222/app.git', 'ssh://git.example.com:2222/app.git'],
    ['git+ssh://TOKEN@git.example.com/app.git', 'git+ssh://git.example.com/app.git'],
    // Not a URL the WHATWG parser takes (a space in the password): cut by hand all the same.
    ['https://deploy:TO KEN@git.example.com/app.git?x=TOKEN', 'https://git.example.com/app.git'],
    ['https://deploy:TOKEN@[::1/app.git', 'https://[::1/app.git'],
    // scp-like shorthand
    ['git@github.com:team/app.git', 'github.com:team/app.git'],
    ['deploy:TOKEN@git.example.com:team/app.git', 'git.example.com:team/app.git'],
  ])('%s → %s', (source, shown) => {
    expect(redactSourceUrl(source)).toBe(shown);
    expect(redactSourceUrl(source)).not.toContain('TOKEN');
  });

  it('leaves sources without credentials alone', () => {
    for (const source of ['/srv/git/app.git', '/srv/git/user@host/app.git', 'file:///srv/git/app.git', 'https://git.example.com/app.git', './relative@x']) {
      expect(redactSourceUrl(source)).toBe(source);
    }
  });
});

describe('describeSource', () => {
  it('names a GitHub link by its repository and any other by its source without credentials', () => {
    expect(describeSource({ kind: 'github', repo_owner: 'acme', repo_name: 'app', source_url: 'https://github.com/acme/app.git' })).toBe('github.com/acme/app');
    expect(describeSource({ kind: 'local', repo_owner: null, repo_name: null, source_url: 'https://deploy:TOKEN@git.example.com/app.git' })).toBe(
      'https://git.example.com/app.git',
    );
  });
});

describe('redactSourcesIn', () => {
  it('redacts every URL quoted in a message, and nothing else', () => {
    const stderr =
      "fatal: unable to access 'https://deploy:TOKEN@git.example.com/app.git/': The requested URL returned error: 403\n" +
      'fatal: repository https://git.example.com/app.git?private_token=TOKEN/info/refs not found (user deploy@example.com)';
    expect(redactSourcesIn(stderr)).toBe(
      "fatal: unable to access 'https://git.example.com/app.git/': The requested URL returned error: 403\n" +
        'fatal: repository https://git.example.com/app.git not found (user deploy@example.com)',
    );
  });
});
