import type { RepoLinkRow } from '../../db/schema.js';
import type { AppError } from '../../errors.js';
import { describeSource, redactSourcesIn } from '../../git/source-name.js';
import { html, type Html } from '../../html/html.js';
import { csrfField, field, formErrors, when } from './layout.js';
import { CHANGELOG_PR_PERMISSION_HINT, CHECKS_PERMISSION_HINT, RELEASES_PERMISSION_HINT, type LinkPublishing } from '../../github/publishing.service.js';

export interface ReposPanel {
  slug: string;
  links: RepoLinkRow[];
  commits: Map<string | null, number>;
  canManage: boolean;
  csrf: string;
  /** Whether entries of stored commits are still being generated (after a sync, the last step before they show). */
  generating: boolean;
  /** REPO_PATHS_ALLOWED: where local paths may be linked from here. */
  pathsAllowed: readonly string[];
  /** Whether this user may link them here (the installation owner; owners of organizations in REPO_PATHS_ORGS). */
  localPaths: boolean;
  /** What each GitHub link publishes to GitHub and how its releases' sync went, by link id. */
  publishing?: Map<string, LinkPublishing>;
  /** A failed link, set-branch or unlink: its error, shown by the form (or link) it came from. */
  error?: { error: AppError; linkId?: string; values?: { source?: string; branch?: string; releaseBranches?: string } };
}

function syncCell(link: RepoLinkRow, commits: number): Html {
  if (link.sync_state === 'running') {
    const of = link.sync_total > 0 ? ` ${link.sync_done} of ${link.sync_total} commits` : '';
    return html`<span class="badge ingesting">syncing</span>${of}`;
  }
  if (link.sync_state === 'queued') return html`<span class="badge pending">queued</span>`;
  const added = link.last_sync_added !== null ? html` · ${link.last_sync_added} new` : '';
  return html`${link.last_synced_at ? html`synced ${when(link.last_synced_at)}${added}` : html`<span class="muted">never synced</span>`}<br><span class="muted">${commits} commits stored</span>`;
}

const CHECK_MODES = [
  ['off', 'Off'],
  ['report', 'Report (neutral or success, never blocks)'],
  ['blocking', 'Blocking (failure when there are warnings)'],
] as const;

/** A GitHub link's "Publish to GitHub" cell: the settings (for managers) and the releases' sync state. */
function publishingCell(p: ReposPanel, link: RepoLinkRow, state: LinkPublishing): Html {
  const sync = state.sync;
  const status = state.releases
    ? html`<p class="muted" role="status">GitHub Releases: ${sync.lastSyncedAt ? html`last synced ${when(sync.lastSyncedAt)}` : 'nothing synced yet'}${
        sync.behind ? html` · ${sync.behind} waiting` : ''
      }</p>${sync.lastError ? html`<p class="field-error">GitHub Releases, ${sync.lastError.tag}: ${sync.lastError.error}</p>` : ''}`
    : '';
  const checks = state.prChecks !== 'off' && state.prChecksError ? html`<p class="field-error">Pull-request checks: ${state.prChecksError}</p>` : '';
  const pr = state.changelogPr;
  const changelog = pr.on
    ? html`<p class="muted" role="status">CHANGELOG.md: ${pr.number !== null ? html`pull request #${String(pr.number)}` : 'no pull request open'}${pr.syncedAt ? html`, updated ${when(pr.syncedAt)}` : ''}</p>${
        pr.error ? html`<p class="field-error">CHANGELOG.md: ${pr.error}</p>` : ''
      }`
    : '';
  if (!p.canManage) return html`${status}${checks}${changelog}`;
  return html`${status}${checks}${changelog}<form class="stack" method="post" action="/dashboard/projects/${p.slug}/repos/${link.id}/github">${csrfField(p)}
  <label class="inline-check"><input type="checkbox" name="releases" value="on"${state.releases ? html` checked` : ''} aria-describedby="gh-rel-${link.id}"> Publish release notes to GitHub Releases</label>
  <p class="hint" id="gh-rel-${link.id}">Publishing a release note creates or updates the release of its tag (its assets are never touched); an edit updates it; an unpublish removes the service's text (a release the service created is marked draft). Drafts and pending revisions never reach GitHub. Notes published before this is turned on are sent at their next change. ${RELEASES_PERMISSION_HINT}</p>
  <label class="inline-check"><input type="checkbox" name="changelogPr" value="on"${pr.on ? html` checked` : ''} aria-describedby="gh-md-${link.id}"> Keep CHANGELOG.md current through a pull request</label>
  <p class="hint" id="gh-md-${link.id}">The published release notes (Keep a Changelog) on the branch <code>changelog-service-update</code>, with one pull request into the tracked branch, updated after each publish; nothing is ever pushed to the tracked branch. ${CHANGELOG_PR_PERMISSION_HINT}</p>
  <label for="gh-chk-${link.id}">Pull-request checks</label><select id="gh-chk-${link.id}" name="prChecks" aria-describedby="gh-chk-h-${link.id}">${CHECK_MODES.map(
    ([v, label]) => html`<option value="${v}"${state.prChecks === v ? html` selected` : ''}>${label}</option>`,
  )}</select>
  <p class="hint" id="gh-chk-h-${link.id}">A check run on each pull request shows how it will read in the next release note. ${CHECKS_PERMISSION_HINT}</p>
  <div><button class="small secondary" type="submit">Save GitHub publishing</button></div>
</form>${
    state.releases && sync.behind
      ? html`<form class="inline" method="post" action="/dashboard/projects/${p.slug}/repos/${link.id}/github/retry">${csrfField(p)}<button class="small" type="submit">Retry GitHub Releases</button></form>`
      : ''
  }`;
}

/** The project page's "Repositories" panel: links, their sync progress and last error, and (for managers) the forms. */
export function reposPanel(p: ReposPanel): Html {
  const busy = p.links.some((l) => l.sync_state !== 'idle');
  const errorFor = (linkId?: string) => (p.error && p.error.linkId === linkId ? formErrors(p.error.error.message, p.error.error.details, ['source', 'branch', 'releaseBranches']) : '');
  const rows = p.links.map(
    (link) => html`<tr id="repo-${link.id}">
  <td><code>${describeSource(link)}</code>${link.status === 'error' && link.last_error ? html`<p class="field-error">Last error: ${redactSourcesIn(link.last_error)}</p>` : ''}${link.status === 'active' && link.last_error ? html`<p class="muted">Warning: ${redactSourcesIn(link.last_error)}</p>` : ''}</td>
  <td><code>${link.tracked_branch}</code>${link.default_branch && link.default_branch !== link.tracked_branch ? html`<br><span class="muted">default ${link.default_branch}</span>` : ''}${link.release_branches.length ? html`<br><span class="muted">release branches ${link.release_branches.join(', ')}</span>` : ''}</td>
  <td><span class="badge ${link.status}">${link.status}</span></td>
  <td>${syncCell(link, p.commits.get(link.id) ?? 0)}</td>
  ${
    p.canManage
      ? html`<td>${errorFor(link.id)}<div class="actions">
    <form class="inline" method="post" action="/dashboard/projects/${p.slug}/repos/${link.id}/sync">${csrfField(p)}<button class="small" type="submit">Sync now</button></form>
    <form class="inline" method="post" action="/dashboard/projects/${p.slug}/repos/${link.id}/branch">${csrfField(p)}<label class="visually-hidden" for="branch-${link.id}">Branch</label><input id="branch-${link.id}" name="branch" value="${link.tracked_branch}" maxlength="255" required size="12"><button class="small secondary" type="submit">Change branch</button></form>
    <form class="inline" method="post" action="/dashboard/projects/${p.slug}/repos/${link.id}/release-branches">${csrfField(p)}<label class="visually-hidden" for="release-${link.id}">Release branches</label><input id="release-${link.id}" name="releaseBranches" value="${link.release_branches.join(', ')}" maxlength="1100" size="14" placeholder="*.x, release/*"><button class="small secondary" type="submit">Set release branches</button></form>
    <form class="inline" method="post" action="/dashboard/projects/${p.slug}/repos/${link.id}/unlink" data-confirm="Remove this repository link?">${csrfField(p)}<label class="inline-check"><input type="checkbox" name="purge" value="on"> also delete its commits</label><button class="small danger" type="submit">Unlink</button></form>
  </div></td>`
      : ''
  }
</tr>${
      link.kind === 'github' && p.publishing?.get(link.id)
        ? html`<tr class="subrow"><td colspan="${p.canManage ? 5 : 4}"><h3 class="small-heading">Publish to GitHub</h3>${publishingCell(p, link, p.publishing.get(link.id)!)}</td></tr>`
        : ''
    }`,
  );
  const values = p.error && p.error.linkId === undefined ? p.error.values : undefined;
  return html`<section class="panel" aria-labelledby="repos-h"><h2 id="repos-h">Repositories</h2>
${
  busy
    ? html`<p class="muted" data-refresh-seconds="3" role="status">A sync is under way; this page updates every few seconds.</p>`
    : p.generating && p.links.length
      ? html`<p class="muted" data-refresh-seconds="3" role="status">Generating entries from the stored commits; this page updates every few seconds.</p>`
      : ''
}
${
  p.links.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Repository</th><th scope="col">Branch</th><th scope="col">Status</th><th scope="col">Sync</th>${p.canManage ? html`<th scope="col">Manage</th>` : ''}</tr></thead><tbody>
${rows}
</tbody></table></div>`
    : html`<p class="empty">No repository linked yet.</p>`
}
${
  p.canManage
    ? html`<h3>Link a repository</h3>
${errorFor(undefined)}
<form class="stack" method="post" action="/dashboard/projects/${p.slug}/repos">${csrfField(p)}
  ${field({
    name: 'source',
    label: 'Local path or git URL',
    value: values?.source ?? '',
    required: true,
    errors: p.error && p.error.linkId === undefined ? p.error.error.details : undefined,
    hint: p.pathsAllowed.length
      ? p.localPaths
        ? `An https:// URL of a public repository, or a directory inside ${p.pathsAllowed.join(', ')}.`
        : 'An https:// URL of a public repository. Local paths on the server can be linked here only by the installation owner (or an organization owner the operator allows).'
      : html`An https:// URL of a public repository. A local checkout: link it from a terminal on the server (<code>changelog repos link --project ${p.slug} --path DIR</code>), or list its parent directory in the server's <code>REPO_PATHS_ALLOWED</code> setting to link it here.`,
    attrs: html` maxlength="2000"`,
  })}
  ${field({ name: 'branch', label: 'Branch', value: values?.branch ?? '', errors: p.error && p.error.linkId === undefined ? p.error.error.details : undefined, hint: "Empty: the repository's default branch.", attrs: html` maxlength="255"` })}
  ${field({
    name: 'releaseBranches',
    label: 'Release branches',
    value: values?.releaseBranches ?? '',
    errors: p.error && p.error.linkId === undefined ? p.error.error.details : undefined,
    hint: 'Optional, comma-separated: branches whose tags make release notes too, such as *.x or release/* (one * each). Entries and rollups stay on the tracked branch.',
    attrs: html` maxlength="1100"`,
  })}
  <div><button type="submit">Link repository</button></div>
</form>`
    : ''
}
</section>`;
}
