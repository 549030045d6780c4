/**
 * The token of an `Authorization: Bearer <token>` header (the scheme in any case), or undefined when
 * the header is absent or of another form. The one reading of the header: API keys, the rate limit's
 * buckets and the metrics token all go through it.
 */
export function bearerToken(authorization: string | string[] | undefined): string | undefined {
  const header = Array.isArray(authorization) ? authorization[0] : authorization;
  return header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}
