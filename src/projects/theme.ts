import { AppError } from '../errors.js';

/** How a project's public page and widget defaults look; both parts optional. */
export interface Theme {
  /** `#rrggbb`, lowercase. */
  color: string | null;
  /** An https URL of an image. */
  logoUrl: string | null;
}

const COLOR = /^#[0-9a-fA-F]{6}$/;
export const MAX_LOGO_URL = 2000;

/**
 * Checks what a project owner typed (empty means "none"): the colour must be `#rrggbb`, the logo an
 * absolute https URL without credentials whose host is a domain name or an IPv4 address (see
 * logoProblem). Every problem is reported, by field.
 */
export function parseTheme(input: { color: string; logoUrl: string }): Theme {
  const color = input.color.trim();
  const logo = input.logoUrl.trim();
  const details: { parameter: string; message: string }[] = [];
  if (color && !COLOR.test(color)) details.push({ parameter: 'theme_color', message: 'must be a colour like #1f6feb' });
  if (logo && logoProblem(logo)) details.push({ parameter: 'logo_url', message: logoProblem(logo)! });
  if (details.length) throw new AppError('invalid_request', 'Invalid theme', details);
  return { color: color ? color.toLowerCase() : null, logoUrl: logo ? new URL(logo).href : null };
}

/**
 * A host the public page's Content-Security-Policy can name as it is: a domain name (letters, digits
 * and inner hyphens in dot-separated labels of at most 63, as the URL parser leaves it: lower case,
 * punycode) or an IPv4 address. The URL parser accepts far more in a host (`a.com;sandbox`, quotes,
 * commas, `*`), each of which would change the policy around it.
 */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^(?:${LABEL}\\.)+${LABEL}$`);
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function logoProblem(value: string): string | undefined {
  if (value.length > MAX_LOGO_URL) return `must be at most ${MAX_LOGO_URL} characters`;
  // The URL parser drops tabs and newlines and trims spaces silently: a value with them is refused as typed.
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f]/.test(value)) return 'must not contain spaces or control characters (percent-encode them)';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute https:// URL';
  }
  if (url.protocol !== 'https:') return 'must be an https:// URL';
  if (url.username || url.password) return 'must not contain a user name or password';
  if (url.hostname.length > 253 || !(DOMAIN.test(url.hostname) || IPV4.test(url.hostname))) {
    return 'must name its host by a domain name (letters, digits, hyphens and dots) or an IPv4 address';
  }
  if (url.href.length > MAX_LOGO_URL) return `must be at most ${MAX_LOGO_URL} characters`;
  return undefined;
}

/** A stored logo as the public page, its Content-Security-Policy and the feeds use it. */
export interface CheckedLogo {
  /** The image's URL, as parsed. */
  url: string;
  /** Its origin as a CSP source, built from the checked scheme, host and port: `https://host[:port]`. */
  source: string;
}

/**
 * The stored logo when it passes today's check, else null: a value saved before the host was checked
 * (the database only asks for `https://`) is neither shown nor named in a header. Nothing but this
 * reaches the Content-Security-Policy: the source is assembled from parts, never copied from the value.
 */
export function checkedLogo(stored: string | null): CheckedLogo | null {
  if (stored === null || logoProblem(stored) !== undefined) return null;
  const url = new URL(stored);
  return { url: url.href, source: `https://${url.hostname}${url.port ? `:${url.port}` : ''}` };
}

/** Relative luminance (WCAG 2) of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white, whichever reads better on `background`: text on the accent colour stays legible. */
export function textColorOn(background: string): '#000000' | '#ffffff' {
  return contrastRatio(background, '#000000') >= contrastRatio(background, '#ffffff') ? '#000000' : '#ffffff';
}
