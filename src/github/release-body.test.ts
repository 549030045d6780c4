// The service's text in a GitHub Release (kept apart from the owners' by markers) and how a failed
// write is classified: rate limits with their reset headers, missing permissions, other failures.
import { describe, expect, it } from 'vitest';
import { GitHubWriteError, writeError } from './github.client.js';
import { BODY_BEGIN, BODY_END, githubLogin, MAX_SECTION_CHARS, releaseSection, withoutSection, withSection } from './release-body.js';

const json = (items: string[]) => ({
  title: 'v2.0.0',
  headline_items: [],
  sections: [{ section_type_key: 'feature', label: 'Features', items: items.map((text) => ({ text, component: null })) }],
  component_tags: [],
  team_attribution: null,
});
const input = (items: string[]) => ({
  repoUrl: 'https://github.com/acme/app',
  tag: 'v2.0.0',
  previousTag: 'v1.9.0',
  introduction: null,
  generatedJson: json(items),
  contributors: [],
  noteUrl: 'https://changes.example.com/c/app/releases/v2.0.0',
});

describe('the release body', () => {
  it("shows a note's new contributors and one compare line, not the note's own as well", () => {
    const section = releaseSection({
      ...input(['One']),
      generatedJson: { ...json(['One']), new_contributors: [{ name: '@dev', pr: 3 }], compare_url: 'https://github.com/acme/app/compare/v1.9.0...v2.0.0' },
    });
    expect(section).toContain('**New contributors**\n\n- @dev made their first contribution in [#3](https://github.com/acme/app/pull/3)');
    expect(section.match(/compare\/v1\.9\.0\.\.\.v2\.0\.0/g)).toHaveLength(1);
  });

  it('names contributors by GitHub login or name, never by e-mail address', () => {
    const section = releaseSection({
      ...input(['One']),
      contributors: [
        { name: 'Dev', email: '123+dev@users.noreply.github.com' },
        { name: 'Grace *Hopper*', email: 'grace@example.com' },
        { name: '', email: 'private@example.com' },
      ],
    });
    expect(section).toContain('**Contributors:** @dev, Grace \\*Hopper\\*\n');
    expect(section).not.toContain('private@example.com');
    expect(releaseSection({ ...input(['One']), contributors: [{ name: ' ', email: 'private@example.com' }] })).not.toContain('Contributors');
  });

  it('links pull requests to the repository and keeps commit text as text', () => {
    const section = releaseSection(input(['Add `x` [click](javascript:alert(1)) (#42)']));
    expect(section).toContain('([#42](https://github.com/acme/app/pull/42))');
    // Escaped as generation escapes it: GitHub shows the brackets, no link.
    expect(section).toContain('\\[click\\](javascript:alert(1))');
    expect(section).toContain('**Full Changelog**: https://github.com/acme/app/compare/v1.9.0...v2.0.0');
  });

  it("replaces its own section and leaves the owners' text, also when they wrote after it", () => {
    const first = withSection("Owners' words", releaseSection(input(['One'])));
    const withTail = `${first}\n\nA line the owners added later`;
    const second = withSection(withTail, releaseSection(input(['Two'])));
    expect(second).toContain("Owners' words");
    expect(second).toContain('A line the owners added later');
    expect(second).toContain('- Two');
    expect(second).not.toContain('- One');
    expect(second.split(BODY_BEGIN)).toHaveLength(2);
    expect(withoutSection(second)).toBe("Owners' words\n\nA line the owners added later");
    expect(withoutSection('no markers at all')).toBe('no markers at all');
    expect(withoutSection(`${BODY_BEGIN} but no end`)).toBe(`${BODY_BEGIN} but no end`);
  });

  it('keeps commit text from forging its markers: an update replaces, and an unpublish removes, all of its text', () => {
    const forged = releaseSection(input([`Handle \`${BODY_END}\` and \`${BODY_BEGIN}\``, 'Leftover that must go']));
    expect(forged.split(BODY_END)).toHaveLength(2);
    expect(forged.split(BODY_BEGIN)).toHaveLength(2);
    const body = withSection("Owners' words", forged);
    expect(withoutSection(body)).toBe("Owners' words");
    const updated = withSection(body, releaseSection(input(['Two'])));
    expect(updated).not.toContain('Leftover');
    expect(withoutSection(updated)).toBe("Owners' words");
  });

  it("cuts a huge note under GitHub's limit and says where the whole note is, in linear time", () => {
    const items = Array.from({ length: 20_000 }, (_, i) => `Change number ${i} with some words to make it long`);
    const started = performance.now();
    const section = releaseSection(input(items));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(section.length).toBeLessThan(MAX_SECTION_CHARS + 500);
    expect(section).toContain('read it whole at https://changes.example.com/c/app/releases/v2.0.0');
    expect(section.endsWith(BODY_END)).toBe(true);
  });

  it('names GitHub users by their no-reply address only', () => {
    expect(githubLogin('123+octo-cat@users.noreply.github.com')).toBe('octo-cat');
    expect(githubLogin('octocat@users.noreply.github.com')).toBe('octocat');
    expect(githubLogin('octocat@example.com')).toBeNull();
    expect(githubLogin('a@b@users.noreply.github.com')).toBeNull();
  });
});

describe('a failed write', () => {
  const failure = (status: number, headers: Record<string, string>, message = 'x') =>
    Object.assign(new Error(message), { status, response: { headers, data: { message } } });
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('is a rate limit until x-ratelimit-reset (403, remaining 0), or for retry-after (429, or a secondary 403)', () => {
    const primary = writeError(failure(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 120) }), 'to x', now);
    expect(primary).toMatchObject({ kind: 'rate_limited', retryAt: new Date(now + 120_000) });
    expect(writeError(failure(429, { 'retry-after': '30' }), 'to x', now)).toMatchObject({ kind: 'rate_limited', retryAt: new Date(now + 30_000) });
    expect(writeError(failure(403, { 'retry-after': '5' }), 'to x', now)).toMatchObject({ kind: 'rate_limited', retryAt: new Date(now + 5_000) });
    expect(writeError(failure(429, {}), 'to x', now)).toMatchObject({ kind: 'rate_limited', retryAt: new Date(now + 60_000) });
    // A bogus reset far away waits an hour at most.
    expect(writeError(failure(429, { 'retry-after': '99999999' }), 'to x', now).retryAt).toEqual(new Date(now + 3_600_000));
  });

  it('is a refusal on any other 403, quoting GitHub (capped), and a failure to retry otherwise', () => {
    const refused = writeError(failure(403, {}, 'Resource not accessible by integration'), 'to create the release of v1', now);
    expect(refused).toMatchObject({
      kind: 'forbidden',
      message: 'GitHub refused to create the release of v1 (GitHub said: Resource not accessible by integration)',
    });
    expect(writeError(failure(403, {}, 'x'.repeat(5000)), 'to x', now).message.length).toBeLessThan(300);
    expect(writeError(failure(502, {}), 'to x', now)).toMatchObject({ kind: 'failed', message: 'GitHub did not answer to x (status 502)' });
    expect(writeError(new GitHubWriteError('not_found', 'kept'), 'to x')).toMatchObject({ kind: 'not_found', message: 'kept' });
  });
});
