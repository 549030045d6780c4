import { describe, expect, it } from 'vitest';
import { capDetails, MAX_DETAILS, type ErrorDetail } from '../errors.js';
import { validationDetails } from './errors.js';

const details = (n: number): ErrorDetail[] => Array.from({ length: n }, (_, i) => ({ in: 'body', parameter: `k${i}`, message: 'is not a known property' }));

describe('capDetails', () => {
  it('keeps up to 20 details as they are', () => {
    expect(MAX_DETAILS).toBe(20);
    expect(capDetails([])).toEqual([]);
    expect(capDetails(details(20))).toEqual(details(20));
  });

  it('keeps the first 20 and counts the rest in a final entry', () => {
    expect(capDetails(details(21))).toEqual([...details(20), { message: '…and 1 more problem' }]);
    const capped = capDetails(details(50_000));
    expect(capped).toHaveLength(21);
    expect(capped.slice(0, 20)).toEqual(details(20));
    expect(capped[20]).toEqual({ message: '…and 49980 more problems' });
  });
});

describe('validationDetails', () => {
  it('is capped: a body of many unknown keys gets 20 details and a count', () => {
    const errors = Array.from({ length: 1_000 }, (_, i) => ({
      instancePath: '',
      keyword: 'additionalProperties',
      params: { additionalProperty: `k${i}` },
    }));
    const result = validationDetails('body', errors);
    expect(result).toHaveLength(21);
    expect(result[0]).toEqual({ in: 'body', parameter: 'k0', message: 'is not a known property' });
    expect(result[20]).toEqual({ message: '…and 980 more problems' });
  });

  it('counts a parameter reported twice once', () => {
    const error = { instancePath: '/limit', keyword: 'minimum', message: 'must be >= 1', params: {} };
    expect(validationDetails('querystring', [error, error])).toEqual([{ in: 'querystring', parameter: 'limit', message: 'must be >= 1' }]);
  });
});
