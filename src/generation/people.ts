/** People on a commit: its author, `Co-authored-by:` trailers, bots, and exclusion patterns. */

export interface Author {
  name: string;
  email: string;
}

const BOT_NAMES = /(\[bot\]$|^(dependabot|dependabot-preview|renovate|renovate-bot|greenkeeper|snyk-bot|github-actions|imgbot|allcontributors|semantic-release-bot|mergify|pre-commit-ci|codecov)(\b|$))/i;
const BOT_EMAILS = /(\[bot\]@|^(bot|noreply)@|@(renovateapp\.com|dependabot\.com|greenkeeper\.io)$)/i;

export function isBot(person: Author): boolean {
  const name = person.name.trim();
  return BOT_NAMES.test(name) || BOT_EMAILS.test(person.email.trim()) || /\bbot$/i.test(name);
}

const CO_AUTHOR = /^co-authored-by:\s*(.+?)\s*<([^>]*)>\s*$/gim;

/** `Co-authored-by: Name <email>` trailers, in order, without duplicates. */
export function coAuthors(message: string): Author[] {
  const seen = new Set<string>();
  const out: Author[] = [];
  for (const m of message.matchAll(CO_AUTHOR)) {
    const person = { name: m[1]!.trim(), email: m[2]!.trim() };
    const key = personKey(person);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(person);
    }
  }
  return out;
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
    const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);
    return re.test(name) || re.test(email);
  });
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** "A", "A and B", "A, B and 1 other", "A, B and 5 others". */
export function formatNames(names: readonly string[]): string | null {
  if (names.length === 0) return null;
  if (names.length === 1) return names[0]!;
  if (names.length === 2) return `${names[0]} and ${names[1]}`;
  const rest = names.length - 2;
  return `${names[0]}, ${names[1]} and ${rest} ${rest === 1 ? 'other' : 'others'}`;
}
