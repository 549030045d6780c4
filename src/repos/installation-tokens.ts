/**
 * Where the repos domain gets the token to fetch a GitHub link with. The GitHub App provides it
 * (github/github.service.ts), handed in by the composition root: repos never imports GitHub, which
 * drives links through the repos service.
 */
export interface InstallationTokens {
  /** A token for the installation's repositories (our id), or null when it is gone or not active. */
  installationToken(installationId: string): Promise<string | null>;
}
