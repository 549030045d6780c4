import { describe, expect, it } from 'vitest';
import { documentOrder } from './changelog-md.js';

const note = (
  tag: string | null,
  released_at: string | null,
  version: string | null = tag?.replace(/^.*?v?(\d)/, '$1') ?? null,
  pkg: string | null = null,
) => ({
  tag,
  released_at,
  version,
  package: pkg,
});

describe('documentOrder', () => {
  it('orders releases that reached the branch at one instant by version, highest first, and leaves the rest as listed', () => {
    const merged = '2024-08-08T10:00:00.000Z';
    const listed = [
      note(null, null),
      note('v3.5.0-beta.1', '2024-08-08T12:00:00.000Z'),
      // One merge brought these in together; the listing's tie-break (ids) shuffled them.
      note('v3.5.0-alpha.2', merged),
      note('v3.5.0-alpha.5', merged),
      note('pkg@1.0.0', merged, '1.0.0', 'pkg'),
      note('v3.5.0-alpha.1', merged),
      note('v3.5.0-alpha.3', merged),
      note('v3.4.0', '2024-01-01T00:00:00.000Z'),
    ];
    expect(documentOrder(listed).map((n) => n.tag)).toEqual([
      null,
      'v3.5.0-beta.1',
      'v3.5.0-alpha.5',
      'v3.5.0-alpha.3',
      'v3.5.0-alpha.2',
      'v3.5.0-alpha.1',
      'pkg@1.0.0',
      'v3.4.0',
    ]);
    expect(listed[2]!.tag).toBe('v3.5.0-alpha.2'); // the input is left as it was
  });
});
