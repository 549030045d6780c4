/**
 * Verification of a model's release summary (docs/summaries.md): what the model wrote is kept only
 * where the release's own items back it. Pure, no I/O; linear in the size of the answer and of the
 * items' sources (sets of tokens are built once, each word of the answer is looked up once).
 *
 * The model's answer is untrusted input like the commits it read: it is size-capped before it is
 * parsed, its shape is checked field by field, and every sentence or rewording that fails a check is
 * dropped with its reason, never repaired. The deterministic note stays whatever the model says.
 */

/** An item of the release as the model sees it and as verification judges it. */
export interface SummaryItem {
  /** The item's key in the note (release-edits.ts keyedItems): what sentences cite. */
  id: string;
  section: string;
  /** The generated text, as readers see it (possibly ending with a pull-request reference `(#N)`). */
  text: string;
  component: string | null;
  /** The pull request's (or commit's) title line, when a commit of the note is known for the item. */
  prTitle: string | null;
  /**
   * An excerpt of the commit's body: context for the model's wording, never evidence. A body is where a
   * hostile commit would put instructions, so nothing specific the model takes from it is kept.
   */
  body: string | null;
}

export interface SummarySentence {
  text: string;
  /** Item ids (keys) the sentence summarizes: all of this release. */
  items: string[];
}
export interface SummaryRewording {
  id: string;
  /** The reworded text with the item's pull-request reference appended by code. */
  text: string;
}
export interface Rejection {
  kind: 'answer' | 'sentence' | 'rewording';
  /** What the model wrote (cut to 300 characters). */
  text: string;
  reason: string;
}
export interface VerifiedSummary {
  sentences: SummarySentence[];
  rewordings: SummaryRewording[];
  rejected: Rejection[];
}

export const SUMMARY_LIMITS = {
  /** Sentences of the introduction kept at most ("a few sentences"). */
  sentences: 3,
  sentenceChars: 400,
  /** A reworded item, before its pull-request reference (release-edits.ts allows 500 in all). */
  rewordingChars: 300,
  /** The whole answer, read before parsing: a bigger one is refused unread. */
  answerChars: 64_000,
} as const;

/** A trailing pull-request reference, as release-edits.ts keys items by it. */
const PULL_REQUEST = /\s*\(#(\d{1,10})\)\s*$/;

/** The item's text without its pull-request reference (what the model may reword). */
export function wordingOf(text: string): string {
  return text.replace(PULL_REQUEST, '');
}

// Control characters, bidirectional marks, overrides and isolates: never in shown text (release-edits.ts).
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069\uFFF9-\uFFFB\uFFFE\uFFFF\u2028\u2029]/;
/** What only code renders: links and URLs, pull-request or issue numbers, @mentions, Markdown links, HTML. */
const RENDERED_BY_CODE: ReadonlyArray<[RegExp, string]> = [
  [/[a-z][a-z0-9+.-]{1,20}:\/\/|\bwww\./i, 'contains a link (links are rendered by code)'],
  [/(^|[^\w&])#\d/, 'contains a pull-request or issue number (rendered by code)'],
  // `@name`, not a scoped package (`@scope/name`).
  [/(^|[^\w.])@[a-z0-9][\w-]*(?![\w-]|\/)/i, 'mentions someone (authors are rendered by code)'],
  [/[<>[\]]/, 'contains Markdown link or HTML syntax'],
];

/**
 * Looks like text addressing a model rather than describing a change. Bounded gaps, no nested
 * quantifiers: linear time on any input.
 */
const ADDRESSES_A_MODEL =
  /\b(ignore|disregard|forget|override)\b[^.\n]{0,40}\b(instructions?|prompts?|rules|directions)\b|\bsystem prompt\b|\byou are (now )?(a|an|the|chatgpt|an? ai)\b|\b(assistant|model|llm|ai)\s*[:,]\s*(write|say|output|respond)\b|\bnew instructions?\b/i;

/** Whether an item's source holds text addressed to a model (its body is then withheld from it). */
export function addressesModel(text: string | null): boolean {
  return !!text && ADDRESSES_A_MODEL.test(text);
}

// Words: letters, digits and the punctuation identifiers, versions, package and option names are made of.
const TOKEN = /(?:--?)?[\p{L}\p{N}_$@][\p{L}\p{N}_$@./:+#'’-]*/gu;
const TRAILING_PUNCTUATION = new Set([...".:/+#'’-"]);
/** A token without its trailing punctuation (a loop: a regex anchored at the end rescans long runs). */
function trimmed(token: string): string {
  let end = token.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(token[end - 1]!)) end--;
  return token.slice(0, end);
}
const LETTERS = /^[\p{L}'’]+$/u;

/**
 * Words any summary may use without its items saying them: how changes are described, not what
 * changed. Anything else (a product, a security claim, a feature) needs a source.
 */
const GENERIC = new Set(
  `a an the and or but nor so yet of to in on at by for with from into onto over under about after before during between
  through without within as is are was were be been being has have had do does did can could will would should may might must
  this that these those it its it's there their them they we our you your users user people anyone developers
  now also more less most many much few several some various other others each every both all any no not only just still
  new release releases released version versions update updates updated updating change changes changed changing
  fix fixes fixed fixing bug bugs issue issues problem problems resolve resolves resolved resolving address addresses addressed
  improve improves improved improvement improvements better enhance enhances enhanced enhancement enhancements
  add adds added adding support supports supported supporting remove removes removed removing drop drops dropped
  make makes made ensure ensures ensured prevent prevents prevented avoid avoids avoided allow allows allowed
  correct correctly correctness properly proper handle handles handled handling case cases when where which while what who how
  work works working behaviour behavior behaviours behaviors internal internals minor small several various general overall
  dependency dependencies bump bumps bumped upgrade upgrades upgraded documentation docs doc readme
  error errors crash crashes failure failures fail fails failing reliable reliability stability stable faster performance
  include includes included including introduce introduces introduced well plus like such than then here
  first second last latest previous next several number handful range set series
  summary summarizes brings bring brought includes across way ways using use uses used option options`.split(/\s+/),
);

/** Counts spelled out are claims like digits ("fixes three bugs"): they need a source too. */
const NUMBER_WORDS = new Set(
  'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty hundred hundreds thousand thousands million dozen dozens twice thrice'.split(
    ' ',
  ),
);
/** Abbreviations that are punctuation, not identifiers. */
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs']);

/** The lower-cased tokens of a source, with the parts of compound ones (`@rollup/plugin-node` → rollup, plugin, node). */
function evidenceOf(texts: ReadonlyArray<string | null>): { tokens: Set<string>; stems: Set<string> } {
  const tokens = new Set<string>();
  const stems = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const match of text.matchAll(TOKEN)) {
      const token = trimmed(match[0]).toLowerCase();
      if (!token) continue;
      tokens.add(token);
      for (const part of token.split(/[^\p{L}\p{N}_$]+/u)) {
        if (!part) continue;
        tokens.add(part);
        stems.add(stem(part));
      }
    }
  }
  return { tokens, stems };
}

/** A crude stem, enough to accept `caching` for `cache` and `exports` for `export`. */
const stem = (word: string): string => (word.length > 5 ? word.slice(0, 5) : word.replace(/(es|s|ed|ing)$/, '') || word);

/**
 * A word the text must not use without a source: a number or version, an identifier (camelCase,
 * snake_case, dotted or slashed, `--option`, `@scope/package`), an acronym, or a capitalised word
 * that is not the first of a sentence (a name).
 */
function isSpecific(raw: string, sentenceStart: boolean): boolean {
  const lower = raw.toLowerCase();
  if (ABBREVIATIONS.has(lower)) return false;
  if (NUMBER_WORDS.has(lower)) return true;
  if (/\p{N}/u.test(raw)) return true;
  if (/^-|[_./:@$#+]/.test(raw)) return true;
  if (/\p{Ll}\p{Lu}/u.test(raw)) return true;
  if (/^\p{Lu}{2,}$/u.test(raw)) return true;
  if (/-/.test(raw) && !LETTERS.test(raw.replace(/-/g, ''))) return true;
  if (!sentenceStart && /^\p{Lu}/u.test(raw)) return true;
  return false;
}

/**
 * The problem with a text the model wrote about items whose sources are `evidence`, or null. Each
 * specific word must be among the sources' tokens; of its other words (not generic), at most half may
 * be missing from them (a sentence about something else: an invented change).
 */
function unsupported(text: string, evidence: { tokens: Set<string>; stems: Set<string> }): string | null {
  const missingSpecific: string[] = [];
  let content = 0;
  const missingWords: string[] = [];
  let sentenceStart = true;
  for (const match of text.matchAll(TOKEN)) {
    const raw = trimmed(match[0]);
    const before = text.slice(Math.max(0, match.index - 2), match.index);
    const startsSentence = sentenceStart || /[.!?:]\s*$/.test(before) || /^`/.test(before.slice(-1));
    sentenceStart = false;
    if (!raw) continue;
    const lower = raw.toLowerCase();
    if (isSpecific(raw, startsSentence)) {
      const parts = lower.split(/[^\p{L}\p{N}_$]+/u).filter(Boolean);
      if (!evidence.tokens.has(lower) && !(parts.length > 1 && parts.every((p) => evidence.tokens.has(p)) && !/\p{N}/u.test(lower))) {
        missingSpecific.push(raw);
      }
      continue;
    }
    if (!LETTERS.test(raw) || raw.length < 4 || GENERIC.has(lower)) continue;
    content++;
    if (!evidence.tokens.has(lower) && !evidence.stems.has(stem(lower))) missingWords.push(raw);
  }
  if (missingSpecific.length) return `names what its sources do not: ${quoteList(missingSpecific)}`;
  if (missingWords.length >= 2 && missingWords.length * 2 > content) return `describes what its sources do not mention: ${quoteList(missingWords)}`;
  return null;
}

const quoteList = (words: string[]) =>
  [...new Set(words)]
    .slice(0, 5)
    .map((w) => `"${w.slice(0, 60)}"`)
    .join(', ');

const cut = (text: string) => (text.length > 300 ? `${text.slice(0, 299)}…` : text);

function formProblem(text: string, max: number): string | null {
  if (!text.trim()) return 'is empty';
  if (text.length > max) return `is longer than ${max} characters`;
  if (CONTROL.test(text)) return 'contains line breaks or control characters';
  for (const [pattern, reason] of RENDERED_BY_CODE) if (pattern.test(text)) return reason;
  return null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The model's answer (its message content, text) checked against the release's items: the sentences
 * and rewordings that pass, and everything dropped with its reason. A malformed answer keeps nothing.
 */
export function verifySummary(answer: string, items: readonly SummaryItem[]): VerifiedSummary {
  const rejected: Rejection[] = [];
  const none = (reason: string): VerifiedSummary => ({ sentences: [], rewordings: [], rejected: [{ kind: 'answer', text: cut(answer), reason }] });
  if (answer.length > SUMMARY_LIMITS.answerChars) return none(`the answer is longer than ${SUMMARY_LIMITS.answerChars} characters`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return none('the answer is not JSON');
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.introduction) || (parsed.items !== undefined && !Array.isArray(parsed.items))) {
    return none('the answer does not have the requested shape ({ introduction: [...], items: [...] })');
  }

  const byId = new Map(items.map((i) => [i.id, i]));
  const evidence = new Map<string, { tokens: Set<string>; stems: Set<string> }>();
  const evidenceFor = (ids: readonly string[]) => {
    if (ids.length === 1) {
      let e = evidence.get(ids[0]!);
      if (!e) {
        const item = byId.get(ids[0]!)!;
        e = evidenceOf([wordingOf(item.text), item.component, item.prTitle]);
        evidence.set(item.id, e);
      }
      return e;
    }
    const all = ids.map((id) => byId.get(id)!);
    return evidenceOf(all.flatMap((i) => [wordingOf(i.text), i.component, i.prTitle]));
  };
  const addressing = new Set(items.filter((i) => addressesModel(i.text) || addressesModel(i.prTitle) || addressesModel(i.body)).map((i) => i.id));

  const sentences: SummarySentence[] = [];
  for (const raw of parsed.introduction as unknown[]) {
    const text = isRecord(raw) && typeof raw.text === 'string' ? raw.text.trim() : null;
    const cited = isRecord(raw) && Array.isArray(raw.items) ? raw.items : null;
    const reject = (reason: string) => void rejected.push({ kind: 'sentence', text: cut(text ?? JSON.stringify(raw) ?? ''), reason });
    if (text === null || cited === null) {
      reject('is not { text, items }');
      continue;
    }
    if (sentences.length >= SUMMARY_LIMITS.sentences) {
      reject(`more than ${SUMMARY_LIMITS.sentences} sentences`);
      continue;
    }
    const form = formProblem(text, SUMMARY_LIMITS.sentenceChars);
    if (form) {
      reject(form);
      continue;
    }
    if (!cited.length) {
      reject('cites no item of this release');
      continue;
    }
    const foreign = cited.filter((id) => typeof id !== 'string' || !byId.has(id));
    if (foreign.length) {
      reject(`cites what is not an item of this release: ${quoteList(foreign.map(String))}`);
      continue;
    }
    const ids = [...new Set(cited as string[])];
    const hostile = ids.filter((id) => addressing.has(id));
    if (hostile.length) {
      reject('cites an item whose source addresses the model (a possible prompt injection)');
      continue;
    }
    const problem = unsupported(text, evidenceFor(ids));
    if (problem) {
      reject(problem);
      continue;
    }
    sentences.push({ text, items: ids });
  }

  const rewordings: SummaryRewording[] = [];
  const reworded = new Set<string>();
  for (const raw of (parsed.items as unknown[] | undefined) ?? []) {
    const id = isRecord(raw) && typeof raw.id === 'string' ? raw.id : null;
    const text = isRecord(raw) && typeof raw.text === 'string' ? raw.text.trim() : null;
    const reject = (reason: string) => void rejected.push({ kind: 'rewording', text: cut(text ?? JSON.stringify(raw) ?? ''), reason });
    if (id === null || text === null) {
      reject('is not { id, text }');
      continue;
    }
    const item = byId.get(id);
    if (!item) {
      reject(`rewords "${id.slice(0, 60)}", not an item of this release`);
      continue;
    }
    if (reworded.has(id)) {
      reject(`rewords ${id} a second time`);
      continue;
    }
    reworded.add(id);
    const form = formProblem(text, SUMMARY_LIMITS.rewordingChars);
    if (form) {
      reject(form);
      continue;
    }
    if (addressing.has(id)) {
      reject('rewords an item whose source addresses the model (a possible prompt injection)');
      continue;
    }
    const wording = wordingOf(item.text);
    if (text === wording) continue;
    const problem = unsupported(text, evidenceFor([id]));
    if (problem) {
      reject(problem);
      continue;
    }
    // The pull-request reference is the code's: the generated one, whatever the model wrote.
    const reference = PULL_REQUEST.exec(item.text);
    rewordings.push({ id, text: reference ? `${text} (#${reference[1]})` : text });
  }
  return { sentences, rewordings, rejected };
}
