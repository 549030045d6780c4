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
 * absolute https URL without credentials. Every problem is reported, by field.
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

function logoProblem(value: string): string | undefined {
  if (value.length > MAX_LOGO_URL) return `must be at most ${MAX_LOGO_URL} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute https:// URL';
  }
  if (url.protocol !== 'https:') return 'must be an https:// URL';
  if (url.username || url.password) return 'must not contain a user name or password';
  if (url.href.length > MAX_LOGO_URL) return `must be at most ${MAX_LOGO_URL} characters`;
  return undefined;
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
