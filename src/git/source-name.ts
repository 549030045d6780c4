/**
 * How a repository source is named anywhere but in git's own arguments: metric labels, messages,
 * the dashboard, the CLI, errors. The operator may link a URL that carries a credential
 * (`https://deploy:TOKEN@git.example.com/x.git`, `…?private_token=…`); git needs it, nobody else
 * does. Everything that shows or records a source goes through this module: a link's name through
 * `describeSource`, a bare source through `redactSourceUrl`, and text that may quote one (git's
 * messages, a stored error) through `redactSourcesIn`.
 */

/** The parts of a repository link that name it (a structural type: this foundation knows no domain). */
export interface NamedSource {
  kind: string;
  repo_owner: string | null;
  repo_name: string | null;
  source_url: string;
}

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/**
 * A source without its credentials: a URL loses its user name, password or token, its query and its
 * fragment; scp-like `user@host:path` loses `user@`; a local path is shown as it is.
 */
export function redactSourceUrl(source: string): string {
  const scheme = SCHEME.exec(source);
  if (scheme) {
    try {
      const url = new URL(source);
      url.username = '';
      url.password = '';
      url.search = '';
      url.hash = '';
      return url.href;
    } catch {
      // Not a URL the WHATWG parser takes (git may still): cut the same parts by hand. The authority
      // ends at the first / ? # or \, and its user information at the last @ inside it.
      const rest = source.slice(scheme[0].length).split(/[?#]/, 1)[0]!;
      const authorityEnd = rest.search(/[/\\]/);
      const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
      const at = authority.lastIndexOf('@');
      return scheme[0] + (at === -1 ? rest : rest.slice(at + 1));
    }
  }
  // scp-like `[user@]host:path` (git's ssh shorthand): whatever precedes the last @ before the first /.
  if (!source.startsWith('/') && !source.startsWith('.')) {
    const slash = source.indexOf('/');
    const head = slash === -1 ? source : source.slice(0, slash);
    const at = head.lastIndexOf('@');
    if (at !== -1) return source.slice(at + 1);
  }
  return source;
}

/** A link's name as shown and labelled: `github.com/owner/name` for the GitHub App's, else its source without credentials. */
export function describeSource(link: NamedSource): string {
  if (link.kind === 'github' && link.repo_owner !== null && link.repo_name !== null) return `github.com/${link.repo_owner}/${link.repo_name}`;
  return redactSourceUrl(link.source_url);
}

/** URLs inside free text: up to a space, a quote or an angle bracket (git quotes the URLs it names). */
const URL_IN_TEXT = /[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`]+/gi;

/** Text that may quote sources (git's messages, a link's last error) with every URL in it redacted as redactSourceUrl does. */
export function redactSourcesIn(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => redactSourceUrl(url));
}
