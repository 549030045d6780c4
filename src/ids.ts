/** A UUID in its canonical text form: the only shape of id the database accepts for our rows. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a caller-supplied id can name a row at all. Checked before a query, so that a malformed id
 * is "not found" rather than a database error (36 dashes pass a looser `[0-9a-f-]{36}`).
 */
export const isUuid = (id: string): boolean => UUID.test(id);
