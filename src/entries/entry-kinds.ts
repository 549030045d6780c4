/**
 * An entry's types and statuses: the vocabulary its API schemas, the review filter, the public page
 * and the command line share. Apart from the schemas (entry.schemas.ts) so that naming them loads no
 * schema library: `changelog --help` lists them.
 */
export const ENTRY_TYPES = ['commit', 'daily', 'weekly', 'monthly'] as const;
export const ENTRY_STATUSES = ['draft', 'published', 'archived'] as const;
