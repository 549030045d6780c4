/**
 * A merged pull request as the host reports it (GitHub through the App today), cached by the github
 * module and handed to the engine beside the commits. The engine is still a pure function: it never
 * fetches one. Every text field is untrusted (an author wrote it) and capped before it gets here.
 */
export interface PullRequestInfo {
  number: number;
  title: string;
  /** The description, at most 64 KiB; '' when empty. */
  body: string;
  /** Label names as GitHub spells them, at most 50. */
  labels: string[];
  /** Null when the account was deleted ("ghost"). */
  author: { login: string; isBot: boolean } | null;
  /** ISO 8601 UTC. */
  mergedAt: string;
  /** The commit the merge put on the base branch (merge, squash or the last rebased commit). */
  mergeCommitSha: string | null;
  /** The PR's own commits (its branch), at most 250, oldest first. */
  commitShas: string[];
  /**
   * The commits of the PR's own repository whose message names its number (`(#123)`), as the host's
   * cache matched them. When given, a commit joins the PR by number only if it is one of these: in a
   * project of two repositories, `(#12)` of one is not the other's pull request #12.
   */
  citedBy?: string[];
}
