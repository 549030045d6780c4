/**
 * Conventional Commits 1.0 (https://www.conventionalcommits.org/en/v1.0.0/), parsed exactly:
 * `type(scope)!: description`, a blank line before body and footers, footers as `Token: value` or
 * `Token #value`, `BREAKING CHANGE` (upper case, as the spec requires) or `BREAKING-CHANGE` marking a
 * breaking change. Types are compared case-insensitively by the caller.
 */

export interface Footer {
  token: string;
  value: string;
}

export interface ConventionalHeader {
  type: string;
  scope: string | null;
  breaking: boolean;
  description: string;
}

export interface ParsedMessage {
  subject: string;
  /** Body without the footer block (may be empty). */
  body: string;
  footers: Footer[];
  header: ConventionalHeader | null;
  /** From `!` or a BREAKING CHANGE footer. */
  breaking: boolean;
  /** The BREAKING CHANGE footer text, when there is one. */
  breakingDescription: string | null;
}

const HEADER = /^([A-Za-z][A-Za-z0-9_-]*)(?:\(([^()\r\n]*)\))?(!)?: (\S.*)$/;
const FOOTER_LINE = /^(BREAKING CHANGE|BREAKING-CHANGE|[A-Za-z][A-Za-z0-9-]*)(?:: | #)(.*)$/;

export function parseHeader(subject: string): ConventionalHeader | null {
  const m = HEADER.exec(subject);
  if (!m) return null;
  const scope = m[2]?.trim();
  return { type: m[1]!, scope: scope ? scope : null, breaking: m[3] === '!', description: m[4]!.trim() };
}

// Near-conventional headers people write: `Fix (deps): x`, `fix(x):  two spaces`, `fix - x`, `Fix:x`,
// `feat !: x`. Bounded repetitions only: a subject can be any text, and this must stay linear.
const LOOSE_HEADER = /^([A-Za-z]{2,15}) {0,3}(?:\(([^()\r\n]{0,60})\))? {0,3}(!)? {0,3}(?::| {1,3}[-–—]{1,2} ) {0,8}(\S.*)$/;

/**
 * A header in one of the shapes above, or null. The caller decides whether the word is a type
 * (`Fix - x`) or ordinary prose (`Travis - allow failures`).
 */
export function parseLooseHeader(subject: string): ConventionalHeader | null {
  const m = LOOSE_HEADER.exec(subject);
  if (!m) return null;
  const scope = m[2]?.trim();
  return { type: m[1]!, scope: scope ? scope : null, breaking: m[3] === '!', description: m[4]!.trim() };
}

/** Splits a full commit message into subject, body and footers, and reads its conventional header. */
export function parseMessage(message: string): ParsedMessage {
  const lines = message.replace(/\r\n?/g, '\n').split('\n');
  // Git strips leading blank lines; a message that still has them starts at its first text.
  let start = 0;
  while (start < lines.length && lines[start]!.trim() === '') start++;
  const subject = (lines[start] ?? '').trim();
  const rest = lines.slice(start + 1);

  // The footer block is the trailing run of paragraphs that each begin with a footer token; lines
  // inside it that are not tokens continue the previous footer's value. Found in one backward pass
  // (checking each candidate against the rest of the message was quadratic in its paragraphs).
  let footerStart = rest.length;
  for (let i = rest.length - 1; i >= 0; i--) {
    const paragraphStart = rest[i]!.trim() !== '' && (i === 0 || rest[i - 1]!.trim() === '');
    if (!paragraphStart) continue;
    if (!FOOTER_LINE.test(rest[i]!)) break;
    footerStart = i;
  }
  const footers: Footer[] = [];
  for (const line of rest.slice(footerStart)) {
    const m = FOOTER_LINE.exec(line);
    if (m) footers.push({ token: m[1]!, value: m[2]!.trim() });
    else if (footers.length && line.trim() !== '') {
      const last = footers[footers.length - 1]!;
      last.value = last.value ? `${last.value}\n${line.trim()}` : line.trim();
    }
  }
  const body = rest.slice(0, footerStart).join('\n').trim();
  const header = parseHeader(subject);
  const breakingFooter = footers.find((f) => f.token === 'BREAKING CHANGE' || f.token === 'BREAKING-CHANGE');
  return {
    subject,
    body,
    footers,
    header,
    breaking: Boolean(header?.breaking || breakingFooter),
    breakingDescription: breakingFooter?.value || null,
  };
}
