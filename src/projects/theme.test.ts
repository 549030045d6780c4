import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { checkedLogo, contrastRatio, parseTheme, textColorOn } from './theme.js';

describe('parseTheme', () => {
  it('normalizes a colour and keeps an https logo; empty means none', () => {
    expect(parseTheme({ color: ' #1F6FEB ', logoUrl: 'https://example.com/logo.svg' })).toEqual({
      color: '#1f6feb',
      logoUrl: 'https://example.com/logo.svg',
    });
    expect(parseTheme({ color: '', logoUrl: '  ' })).toEqual({ color: null, logoUrl: null });
  });

  it.each([
    [{ color: 'red', logoUrl: '' }, 'theme_color'],
    [{ color: '#12345', logoUrl: '' }, 'theme_color'],
    [{ color: '#123456;}body{', logoUrl: '' }, 'theme_color'],
    [{ color: '', logoUrl: 'http://example.com/logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: 'javascript:alert(1)' }, 'logo_url'],
    [{ color: '', logoUrl: 'data:image/png;base64,AAAA' }, 'logo_url'],
    [{ color: '', logoUrl: '/logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: 'https://user:pw@example.com/logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: `https://example.com/${'a'.repeat(2000)}` }, 'logo_url'],
    // Hosts the URL parser takes that would change the page's Content-Security-Policy around them.
    [{ color: '', logoUrl: 'https://a.com;sandbox' }, 'logo_url'],
    [{ color: '', logoUrl: 'https://a.com%3Bsandbox/logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: "https://a.com'unsafe-eval'/logo.png" }, 'logo_url'],
    [{ color: '', logoUrl: 'https://a.com"x/logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: 'https://a.com,script-src/logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: 'https://a com/logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: 'https://a.com/my logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: 'https://a.com\n;sandbox/logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: 'https://a.com\t/logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: 'https://*/logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: 'https://*.a.com/logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: 'https://[::1]/logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: 'https://localhost/logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: 'https://-a.com/logo.png' }, 'logo_url'],
    [{ color: '', logoUrl: 'https://a.com./logo.png' }, 'logo_url'],
  ])('refuses %j, naming %s', (input, parameter) => {
    try {
      parseTheme(input);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).details).toEqual([expect.objectContaining({ parameter })]);
    }
  });
});

describe('checkedLogo', () => {
  it('builds the CSP source from the parsed scheme, host and port', () => {
    expect(checkedLogo('https://cdn.example.com/logo.svg')).toEqual({ url: 'https://cdn.example.com/logo.svg', source: 'https://cdn.example.com' });
    expect(checkedLogo('https://CDN.Example.com:8443/a.svg?v=1#x')).toEqual({ url: 'https://cdn.example.com:8443/a.svg?v=1#x', source: 'https://cdn.example.com:8443' });
    expect(checkedLogo('https://cdn.example.com:443/a.svg')!.source).toBe('https://cdn.example.com');
    expect(checkedLogo('https://bücher.example/a.svg')!.source).toBe('https://xn--bcher-kva.example');
    expect(checkedLogo('https://192.0.2.7/a.svg')!.source).toBe('https://192.0.2.7');
    expect(checkedLogo(null)).toBeNull();
  });

  it('is null for a value stored before hosts were checked', () => {
    for (const stored of ['https://a.com;sandbox/logo.png', "https://a.com'x/logo.png", 'https://*/x.png', 'https://a.com\n;sandbox/x.png', 'https://a.com;script-src%20*/x.png', 'https://']) {
      expect(checkedLogo(stored), stored).toBeNull();
    }
  });
});

describe('contrast', () => {
  it('picks the text colour with the better contrast, at least 4.5:1 for any accent', () => {
    expect(textColorOn('#ffff00')).toBe('#000000');
    expect(textColorOn('#1f2937')).toBe('#ffffff');
    for (const accent of ['#777777', '#1f6feb', '#ff0000', '#00ff00', '#808080', '#4b4b4b']) {
      expect(contrastRatio(accent, textColorOn(accent))).toBeGreaterThanOrEqual(4.5);
    }
  });
});
