/**
 * People on a commit: bots, identity keys, exclusion patterns and names. Co-authors are parsed once,
 * at ingest (git/commit-record.ts), and read from the stored commit.
 */
import { wildcardMatch } from './glob.js';

export interface Author {
  name: string;
  email: string;
}

const BOT_NAMES = /(\[bot\]$|^(dependabot|dependabot-preview|renovate|renovate-bot|greenkeeper|snyk-bot|github-actions|imgbot|allcontributors|semantic-release-bot|mergify|pre-commit-ci|codecov)(\b|$))/i;
const BOT_EMAILS = /(\[bot\]@|^(bot|noreply)@|@(renovateapp\.com|dependabot\.com|greenkeeper\.io)$)/i;

// Asked for every person of every entry (a commit's own, three rollups, its release note) and for
// few distinct people: remembered (and forgotten wholesale past a bound, like render's cache).
const botCache = new Map<string, boolean>();

export function isBot(person: Author): boolean {
  const key = `${person.name}\u0000${person.email}`;
  let bot = botCache.get(key);
  if (bot === undefined) {
    const name = person.name.trim();
    bot = BOT_NAMES.test(name) || BOT_EMAILS.test(person.email.trim()) || /\bbot$/i.test(name);
    if (botCache.size > 20_000) botCache.clear();
    botCache.set(key, bot);
  }
  return bot;
}

export function personKey(person: Author): string {
  return (person.email || person.name).trim().toLowerCase();
}

/** Whether an author matches one of the patterns: an e-mail, a name, or a `*` wildcard over either. */
export function matchesAuthor(person: Author, patterns: readonly string[]): boolean {
  if (!patterns.length) return false;
  const name = person.name.trim().toLowerCase();
  const email = person.email.trim().toLowerCase();
  return patterns.some((raw) => {
    const pattern = raw.trim().toLowerCase();
    if (!pattern) return false;
    if (!pattern.includes('*')) return pattern === name || pattern === email;
    // Not a regex: `^a.*a.*a.*b$` backtracks exponentially in the number of stars.
    return wildcardMatch(pattern, name) || wildcardMatch(pattern, email);
  });
}

/** "A", "A and B", "A, B and 1 other", "A, B and 5 others". */
export function formatNames(names: readonly string[]): string | null {
  if (names.length === 0) return null;
  if (names.length === 1) return names[0]!;
  if (names.length === 2) return `${names[0]} and ${names[1]}`;
  const rest = names.length - 2;
  return `${names[0]}, ${names[1]} and ${rest} ${rest === 1 ? 'other' : 'others'}`;
}
