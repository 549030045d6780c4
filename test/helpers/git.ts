import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface GitIdentity {
  /** Author and committer date (ISO 8601); the current time when absent. */
  date?: string;
  /** Author and committer, `Name <email>`. */
  author?: string;
}

/**
 * Runs git in `dir` (any directory, or the repository itself) as `author`, at `date` when given, reading
 * neither the machine's nor the user's git configuration; returns its output, trimmed.
 */
export function git(dir: string, args: string[], { date, author = 'Ada <ada@example.com>' }: GitIdentity = {}): string {
  const [, name, email] = /^(.*) <(.*)>$/.exec(author)!;
  return execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email,
      GIT_COMMITTER_NAME: name,
      GIT_COMMITTER_EMAIL: email,
      ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}),
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: dir,
    },
  }).trim();
}

/**
 * Commits in the work tree `dir`: writes each file (creating its folders), `git rm`s each null, commits
 * with `message` (empty commits allowed) and tags it when `tag` is given. Returns the new commit's sha.
 */
export function commitFiles(dir: string, message: string, files: Record<string, string | null>, options: GitIdentity & { tag?: string } = {}): string {
  const { tag, ...identity } = options;
  for (const [path, content] of Object.entries(files)) {
    if (content === null) git(dir, ['rm', '-q', '--', path], identity);
    else {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
      git(dir, ['add', '--', path], identity);
    }
  }
  git(dir, ['commit', '-q', '--allow-empty', '-m', message], identity);
  if (tag) git(dir, ['tag', tag], identity);
  return git(dir, ['rev-parse', 'HEAD']);
}
