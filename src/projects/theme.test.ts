import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { contrastRatio, parseTheme, textColorOn } from './theme.js';

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

describe('contrast', () => {
  it('picks the text colour with the better contrast, at least 4.5:1 for any accent', () => {
    expect(textColorOn('#ffff00')).toBe('#000000');
    expect(textColorOn('#1f2937')).toBe('#ffffff');
    for (const accent of ['#777777', '#1f6feb', '#ff0000', '#00ff00', '#808080', '#4b4b4b']) {
      expect(contrastRatio(accent, textColorOn(accent))).toBeGreaterThanOrEqual(4.5);
    }
  });
});
