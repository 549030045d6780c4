import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProjectRow } from '../db/schema.js';
import type { GenerationService, SettingsPatch } from '../generation/generation.service.js';
import { parseTeamRules, PUBLISH_TARGETS, SettingsError, teamRules } from '../generation/settings.js';
import {
  DEFAULT_SECTION_LABELS,
  GENERATED_ENTRY_TYPES,
  HISTORY_POLICIES,
  SECTION_KEYS,
  type GeneratedEntry,
  type GenerationSettings,
  type HistoryPolicy,
  type SectionKey,
} from '../generation/engine/types.js';
import { AppError } from '../errors.js';
import type { Workspace } from './access.js';
import type { Kit } from './kit.js';
import { html, type Html } from '../html/html.js';
import { csrfField, formErrors } from './views/layout.js';

const SlugParams = Type.Object({ slug: Type.String({ maxLength: 100 }) });
const EntryParams = Type.Object({ id: Type.String({ maxLength: 40 }) });
const Notice = Type.Object({
  notice: Type.Optional(Type.String({ maxLength: 40 })),
  // '1': the form filled with the sections the repository's CHANGELOG.md uses (nothing saved); any other value
  // is ignored (refusing it before the access check would tell another tenant more than a 404 does).
  from_changelog: Type.Optional(Type.String({ maxLength: 10 })),
  // '1': the form filled with the rules editors' edits suggest (edit-suggestions.ts); ignored otherwise, as above.
  from_edits: Type.Optional(Type.String({ maxLength: 10 })),
});
/** A form field that a browser sends once, many times, or (unchecked boxes) not at all. */
const Many = Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Array(Type.String({ maxLength: 200 }), { maxItems: 5000 })]));
const many = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const lines = (text: string) => text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);

const SettingsForm = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    entry_types: Many,
    time_zone: Type.String({ maxLength: 100 }),
    exclude_authors: Type.String({ maxLength: 20_000 }),
    exclude_bots: Type.Optional(Type.String({ maxLength: 10 })),
    path_rules: Type.String({ maxLength: 20_000 }),
    team_paths: Type.Optional(Type.String({ maxLength: 20_000 })),
    team_authors: Type.Optional(Type.String({ maxLength: 20_000 })),
    headline_limit: Type.Optional(Type.String({ maxLength: 5 })),
    pull_request_url: Type.Optional(Type.String({ maxLength: 500 })),
    codeowners: Type.Optional(Type.String({ maxLength: 200_000 })),
    history: Type.Optional(Type.String({ maxLength: 10 })),
    history_since: Type.Optional(Type.String({ maxLength: 40 })),
    summaries: Type.Optional(Type.String({ maxLength: 10 })),
    ...Object.fromEntries(PUBLISH_TARGETS.map((t) => [`publish_${t}`, Type.Optional(Type.String({ maxLength: 10 }))])),
    releases: Type.Optional(Type.String({ maxLength: 10 })),
    ...Object.fromEntries(
      SECTION_KEYS.flatMap((k) => [
        [`visible_${k}`, Type.Optional(Type.String({ maxLength: 10 }))],
        [`label_${k}`, Type.Optional(Type.String({ maxLength: 100 }))],
        [`order_${k}`, Type.Optional(Type.String({ maxLength: 5 }))],
      ]),
    ),
  },
  { additionalProperties: false },
);

type FormBody = Record<string, string | string[] | undefined>;

/** The settings form as a patch of every setting; malformed team rules fail as bad settings do. */
function patchFromForm(body: FormBody): SettingsPatch {
  const order = (k: string) => Number(body[`order_${k}`]) || 99;
  const text = (name: string) => ((body[name] as string | undefined) ?? '').trim();
  let teams;
  try {
    teams = parseTeamRules(lines(text('team_paths')), lines(text('team_authors')));
  } catch (error) {
    if (error instanceof SettingsError) throw new AppError('invalid_request', 'Invalid team rules', error.problems.map((message) => ({ message })));
    throw error;
  }
  const limit = text('headline_limit');
  return {
    entryTypes: many(body.entry_types),
    publish: Object.fromEntries(PUBLISH_TARGETS.map((t) => [t, (body[`publish_${t}`] as string | undefined) ?? 'manual'])),
    releases: body.releases === 'on',
    timeZone: text('time_zone'),
    sections: [...SECTION_KEYS]
      .sort((a, b) => order(a) - order(b))
      .map((key) => ({ key, label: ((body[`label_${key}`] as string | undefined) ?? '').trim(), visible: body[`visible_${key}`] === 'on' })),
    excludeAuthors: lines(text('exclude_authors')),
    excludeBots: body.exclude_bots === 'on',
    pathRules: text('path_rules').split('\n').map((s) => s.trim()).filter(Boolean),
    teams,
    // Left empty: the default (5). Not a whole number: refused by validation.
    ...(limit ? { headlineLimit: /^\d+$/.test(limit) ? Number(limit) : -1 } : { headlineLimit: 5 }),
    pullRequestUrl: text('pull_request_url') || null,
    // Empty: the repository's file. Any text (a lone comment turns owners off): used instead.
    codeowners: text('codeowners') ? ((body.codeowners as string).replace(/\r\n/g, '\n')) : null,
    // Left out of a post (an older form): kept as stored. Validated with the rest.
    ...(body.history !== undefined ? { history: text('history') } : {}),
    ...(body.history_since !== undefined ? { historySince: text('history_since') || null } : {}),
    ...(body.summaries !== undefined ? { summaries: text('summaries') } : {}),
  };
}

const SUMMARY_LABELS: Record<string, string> = {
  off: 'off',
  review: 'suggest them in the release editor, for an editor to use or dismiss',
  auto: 'use them at once (published with a published note nobody edited)',
};

const HISTORY_LABELS: Record<HistoryPolicy, string> = {
  publish: 'publish it, dated when each change reached the branch',
  draft: 'draft it for review',
  skip: 'skip it',
};

type Preview = Awaited<ReturnType<GenerationService['previewSettings']>>;
type Calibrated = NonNullable<Awaited<ReturnType<GenerationService['calibration']>>>;
type Suggested = Awaited<ReturnType<GenerationService['editSuggestions']>>;

/** The rules editors' hides suggest, with what they rest on (one click fills the form; the preview shows what would change). */
function suggestionsPanel(slug: string, { notes, hideSections }: Suggested, filled: boolean): Html {
  return html`<section class="panel" aria-labelledby="edit-suggestions-h"><h2 id="edit-suggestions-h">Suggested by your edits</h2>
<p class="muted">From what editors hid in the ${plural(notes, 'most recently edited release note')}: a rule that would have done it for them.</p>
<ul>${hideSections.map(
    (s) => html`<li>Hide <strong>${s.label}</strong> <span class="muted">(${s.key})</span>: editors hid ${String(s.hidden)} of its ${plural(s.items, 'item')}, in ${plural(s.notes, 'release note')}.</li>`,
  )}</ul>
${filled
    ? html`<p class="notice" role="status">The sections in the form below follow ${hideSections.length === 1 ? 'this suggestion' : 'these suggestions'}. Nothing is saved: <strong>Preview</strong> shows what would change, <strong>Save settings</strong> keeps it.</p>`
    : html`<p><a class="button secondary" href="/dashboard/projects/${slug}/generation?from_edits=1#gen-settings-h">Fill the form with ${hideSections.length === 1 ? 'this rule' : 'these rules'}</a> <span class="muted">Nothing changes until you preview or save.</span></p>`}
</section>`;
}

/** What the repository's CHANGELOG.md uses, and the section settings that would follow it (one click fills the form). */
function calibrationPanel(slug: string, { calibration: c, proposal }: Calibrated, filled: boolean): Html {
  const ours = (key: string | null) => (key ? html`${DEFAULT_SECTION_LABELS[key as SectionKey]} <span class="muted">(${key})</span>` : html`<span class="muted">none of ours</span>`);
  const hidden = proposal?.sections.filter((s) => !s.visible).map((s) => s.label) ?? [];
  return html`<section class="panel" aria-labelledby="calibration-h"><h2 id="calibration-h">Your ${c.path}</h2>
<p class="muted">Read from <code>${c.path}</code> on the tracked branch at the last sync: its newest ${plural(c.releases, 'release')}, ${plural(c.sectioned, 'of them', 'of them')} with sections.</p>
${c.sections.length
    ? html`<div class="table-wrap"><table><caption>The sections its maintainers use</caption><thead><tr><th scope="col">Their section</th><th scope="col">Releases</th><th scope="col">Items</th><th scope="col">Our section</th></tr></thead><tbody>
${c.sections.slice(0, 30).map((s) => html`<tr><th scope="row">${s.title}</th><td>${String(s.releases)}</td><td>${String(s.items)}</td><td>${ours(s.key)}</td></tr>`)}
</tbody></table></div>`
    : ''}
${proposal
    ? html`<p>Following it, the notes would show ${proposal.mapped.map((m, i) => html`${i ? ', ' : ''}<strong>${m.title}</strong>`)} under these names and in this order${
        hidden.length ? html`, and hide ${hidden.join(', ')}` : ''
      }${proposal.unmapped.length ? html`; ${proposal.unmapped.join(', ')} match${proposal.unmapped.length === 1 ? 'es' : ''} no section of ours and ${proposal.unmapped.length === 1 ? 'is' : 'are'} left out` : ''}.</p>
${filled
        ? html`<p class="notice" role="status">The sections in the form below follow ${c.path}. Nothing is saved: <strong>Preview</strong> shows what would change, <strong>Save settings</strong> keeps it.</p>`
        : html`<p><a class="button secondary" href="/dashboard/projects/${slug}/generation?from_changelog=1#gen-settings-h">Fill the form with these sections</a> <span class="muted">Nothing changes until you preview or save.</span></p>`}`
    : html`<p class="muted">It lists its changes straight under each release, without sections: nothing to follow.</p>`}
</section>`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** The preview panel: counts per type and section, what would change, and the newest entries (`contents`: their HTML, in order). */
function previewPanel(p: Preview, contents: readonly Html[]): Html {
  const types = GENERATED_ENTRY_TYPES.filter((t) => p.byType[t].current || p.byType[t].proposed);
  const skipped = Object.entries(p.skipped).filter(([, n]) => n > 0);
  const titled = (e: GeneratedEntry) => html`<li><span class="badge">${e.entry_type}</span> ${e.title}</li>`;
  const changes = p.samples.added.length + p.samples.removed.length + p.samples.changed.length;
  return html`<section class="panel" id="preview" aria-labelledby="preview-h"><h2 id="preview-h">Preview of these settings</h2>
<p class="muted">Generated from the ${plural(p.commits, 'stored commit')} with the settings below as submitted, compared with what the saved settings generate. Nothing has been saved or stored.${
    skipped.length ? ` Left out: ${skipped.map(([why, n]) => `${n} ${why}`).join(', ')}.` : ''
  }</p>
<div class="table-wrap"><table><caption>Entries per type</caption><thead><tr><th scope="col">Type</th><th scope="col">Saved settings</th><th scope="col">These settings</th><th scope="col">Added</th><th scope="col">Removed</th><th scope="col">Changed</th><th scope="col">Unchanged</th></tr></thead><tbody>
${types.length
    ? types.map((t) => {
        const c = p.byType[t];
        return html`<tr><th scope="row">${t}</th><td>${String(c.current)}</td><td>${String(c.proposed)}</td><td>${String(c.added)}</td><td>${String(c.removed)}</td><td>${String(c.changed)}</td><td>${String(c.unchanged)}</td></tr>`;
      })
    : html`<tr><td colspan="7" class="empty">No entries either way.</td></tr>`}
</tbody></table></div>
<div class="table-wrap"><table><caption>Commits per section</caption><thead><tr><th scope="col">Section</th><th scope="col">Commits</th><th scope="col">Shown</th></tr></thead><tbody>
${p.sections.map((s) => html`<tr><th scope="row">${s.label} <span class="muted">(${s.key})</span></th><td>${String(s.commits)}</td><td>${s.visible ? 'yes' : 'hidden'}</td></tr>`)}
</tbody></table></div>
${changes
    ? html`<h3>What would change</h3>
${p.samples.added.length ? html`<h4>Added (newest ${String(p.samples.added.length)})</h4><ul class="preview-list">${p.samples.added.map(titled)}</ul>` : ''}
${p.samples.removed.length ? html`<h4>Removed (newest ${String(p.samples.removed.length)})</h4><ul class="preview-list">${p.samples.removed.map(titled)}</ul>` : ''}
${p.samples.changed.length
        ? html`<h4>Changed (newest ${String(p.samples.changed.length)})</h4><ul class="preview-list">${p.samples.changed.map(
            ({ before, after }) => html`<li><span class="badge">${after.entry_type}</span> ${after.title}${before.title !== after.title ? html` <span class="muted">(was “${before.title}”)</span>` : ''}</li>`,
          )}</ul>`
        : ''}`
    : html`<p class="empty">These settings generate exactly what the saved ones do.</p>`}
<h3>Newest entries with these settings</h3>
${p.newest.length
    ? p.newest.map(
        (e, i) => html`<article class="preview-entry"><h4><span class="badge">${e.entry_type}</span> ${e.title}${e.version_label ? html` <span class="muted">${e.version_label}</span>` : ''}${
          e.team_attribution ? html` <span class="muted">· ${e.team_attribution}</span>` : ''
        }</h4><div class="preview">${contents[i]}</div></article>`,
      )
    : html`<p class="empty">No entries: none of the commits is in a shown section.</p>`}
</section>`;
}

/** Generation settings, and regenerating one entry (the review queue is review.routes.ts). */
export const generationPages: FastifyPluginAsyncTypebox<{ kit: Kit }> = async (app, { kit }) => {
  const { services, access } = kit;

  async function page(
    request: FastifyRequest,
    reply: FastifyReply,
    project: ProjectRow,
    ws: Workspace,
    error?: AppError,
    preview?: Preview,
    fill?: 'changelog' | 'edits',
  ) {
    const csrf = kit.csrf(request);
    const { resolved } = await services.generation.settings(project.slug);
    const counts = await services.entries.reviewCounts(project.id, { status: 'draft' });
    const calibrated = await services.generation.calibration(project.id);
    const suggested = await services.generation.editSuggestions(project.id);
    const filled = fill === 'changelog' && !preview && !!calibrated?.proposal;
    const filledFromEdits = fill === 'edits' && !preview && !!suggested.proposal;
    // A preview shows the form as submitted, so that it can be saved (or changed again) from there.
    const s: GenerationSettings =
      preview?.settings ??
      (filled ? { ...resolved, sections: calibrated!.proposal!.sections } : filledFromEdits ? { ...resolved, sections: suggested.proposal! } : resolved);
    const teams = teamRules(s.teams);
    const codeowners = await services.generation.hasCodeowners(project.id);
    const previewed = preview ? await services.markdown.render(preview.newest.map((e) => e.content)) : undefined;
    return kit.render(
      request,
      reply,
      `Changelog generation · ${project.name}`,
      html`<div class="crumbs"><a href="/dashboard">Overview</a> / <a href="${ws.base}">${ws.label}</a> / <a href="/dashboard/projects/${project.slug}">${project.name}</a> /</div>
<h1>Changelog generation</h1>
<form class="inline" method="post" action="/dashboard/projects/${project.slug}/generate">${csrfField({ csrf })}<button type="submit">Generate now</button></form>
<section class="panel" aria-labelledby="queue-h"><h2 id="queue-h">Review queue</h2>
<p>${counts.byStatus.draft ? `${plural(counts.byStatus.draft, 'draft')} to review.` : 'Nothing to review.'} <a href="/dashboard/projects/${project.slug}/review">Open the review queue</a> to filter, publish, archive or regenerate entries in bulk.</p>
</section>
${calibrated ? calibrationPanel(project.slug, calibrated, filled) : ''}
${suggested.hideSections.length ? suggestionsPanel(project.slug, suggested, filledFromEdits) : ''}
<section class="panel" aria-labelledby="gen-settings-h"><h2 id="gen-settings-h">Settings</h2>
${formErrors(error?.message, error?.details)}
<form class="stack settings" method="post" action="/dashboard/projects/${project.slug}/generation">${csrfField({ csrf })}
<fieldset><legend>Entry types and publishing</legend>
${GENERATED_ENTRY_TYPES.map(
  (t) => html`<div><label><input type="checkbox" name="entry_types" value="${t}"${s.entryTypes.includes(t) ? html` checked` : ''}> ${t}</label>
  <label for="f-publish-${t}">publishing</label> <select id="f-publish-${t}" name="publish_${t}">${(['manual', 'auto'] as const).map(
    (p) => html`<option value="${p}"${s.publish[t] === p ? html` selected` : ''}>${p === 'manual' ? 'draft for review' : 'publish at once'}</option>`,
  )}</select></div>`,
)}
<div><label><input type="checkbox" name="releases" value="on"${s.releases ? html` checked` : ''}> release notes (one per tag, and Unreleased)</label>
  <label for="f-publish-release">publishing</label> <select id="f-publish-release" name="publish_release">${(['manual', 'auto'] as const).map(
    (p) => html`<option value="${p}"${s.publish.release === p ? html` selected` : ''}>${p === 'manual' ? 'draft for review' : 'publish at once'}</option>`,
  )}</select></div>
</fieldset>
<fieldset><legend>History (changes that reached the branch before the repository was linked)</legend>
<div><label for="f-history">History</label> <select id="f-history" name="history">${HISTORY_POLICIES.map(
  (p) => html`<option value="${p}"${s.history === p ? html` selected` : ''}>${HISTORY_LABELS[p]}</option>`,
)}</select></div>
<div><label for="f-history_since">Only history from (a date; empty: all of it)</label><input id="f-history_since" name="history_since" type="date" value="${s.historySince ? s.historySince.slice(0, 10) : ''}"></div>
<p class="muted">New work (changes after the link) follows the publishing policy above. The policy applies to entries not stored yet.</p>
</fieldset>
<fieldset><legend>Release summaries by a language model</legend>
<div><label for="f-summaries">Summaries</label> <select id="f-summaries" name="summaries">${(['off', 'review', 'auto'] as const).map(
  (p) => html`<option value="${p}"${s.summaries === p ? html` selected` : ''}>${SUMMARY_LABELS[p]!}</option>`,
)}</select></div>
<p class="muted">${
  kit.config.llm
    ? html`Written by ${kit.config.llm.model} for the newest release notes after each generation run; only sentences every name and number of which is in the release's own items are kept (docs/summaries.md in the service's repository).`
    : 'No language model is configured on this server (LLM_BASE_URL): nothing is summarized whatever this says.'
}</p>
</fieldset>
<div><label for="f-time_zone">Time zone</label><input id="f-time_zone" name="time_zone" value="${s.timeZone}"></div>
<fieldset><legend>Sections (shown, label, order)</legend>
${s.sections.map(
  (sec, i) => html`<div><label><input type="checkbox" name="visible_${sec.key}" value="on"${sec.visible ? html` checked` : ''}> ${sec.key}</label>
  <input aria-label="Label of ${sec.key}" name="label_${sec.key}" value="${sec.label}"> <input aria-label="Order of ${sec.key}" name="order_${sec.key}" value="${String(i + 1)}" size="3"></div>`,
)}
</fieldset>
<div><label for="f-exclude_authors">Excluded authors (e-mail, name or * pattern; one per line)</label><textarea id="f-exclude_authors" name="exclude_authors">${s.excludeAuthors.join('\n')}</textarea></div>
<div><label><input type="checkbox" name="exclude_bots" value="on"${s.excludeBots ? html` checked` : ''}> Exclude bots</label></div>
<div><label for="f-path_rules">Path rules (GLOB=COMPONENT, one per line; empty: detected)</label><textarea id="f-path_rules" name="path_rules">${s.pathRules.map((r) => `${r.glob}=${r.component}`).join('\n')}</textarea></div>
<fieldset><legend>Teams</legend>
<p class="muted">${
  codeowners
    ? 'The repository has a CODEOWNERS file: its owners name the teams of commits no rule below covers.'
    : 'No CODEOWNERS file in the repository: commits no rule below covers are credited to their authors.'
}</p>
<div><label for="f-team_paths">Team by path (GLOB=TEAM, one per line, e.g. packages/compiler/**=Compiler team)</label><textarea id="f-team_paths" name="team_paths">${teams.paths.join('\n')}</textarea></div>
<div><label for="f-team_authors">Team by author (E-MAIL, NAME or * pattern=TEAM, one per line)</label><textarea id="f-team_authors" name="team_authors">${teams.authors.join('\n')}</textarea></div>
<div><label for="f-codeowners">CODEOWNERS for this project instead of the repository's (empty: the repository's; a lone comment: none)</label><textarea id="f-codeowners" name="codeowners">${s.codeowners ?? ''}</textarea></div>
</fieldset>
<div><label for="f-headline_limit">Headline items per rollup</label><input id="f-headline_limit" name="headline_limit" value="${String(s.headlineLimit)}" size="3" inputmode="numeric"></div>
<div><label for="f-pull_request_url">Pull request link (with {number}; empty: no links)</label><input id="f-pull_request_url" name="pull_request_url" value="${s.pullRequestUrl ?? ''}" placeholder="https://github.com/owner/repo/pull/{number}"></div>
<div class="actions"><button type="submit">Save settings</button> <button class="secondary" type="submit" formaction="/dashboard/projects/${project.slug}/generation/preview#preview">Preview</button></div>
</form></section>
${preview && previewed ? previewPanel(preview, previewed.html) : ''}`,
      { status: error ? error.status : 200 },
    );
  }

  app.get('/dashboard/projects/:slug/generation', { schema: { hide: true, params: SlugParams, querystring: Notice } }, async (request, reply) => {
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    const fill = request.query.from_changelog === '1' ? 'changelog' : request.query.from_edits === '1' ? 'edits' : undefined;
    return page(request, reply, project, ws, undefined, undefined, fill);
  });

  app.post('/dashboard/projects/:slug/generation', { schema: { hide: true, params: SlugParams, body: SettingsForm } }, async (request, reply) => {
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    let published = 0;
    try {
      await services.generation.configure(project.slug, patchFromForm(request.body as FormBody), { onPublished: (p) => (published = p.entries + p.releases) });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'invalid_request') throw error;
      return page(request, reply, project, ws, error);
    }
    return reply.redirect(`/dashboard/projects/${project.slug}/generation?notice=${published ? 'generation-saved-published' : 'generation-saved'}`, 303);
  });

  // The form as submitted, generated from the stored commits and compared with the saved settings; nothing is saved.
  app.post('/dashboard/projects/:slug/generation/preview', { schema: { hide: true, params: SlugParams, body: SettingsForm } }, async (request, reply) => {
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    await app.limitTenantAction(request, reply, 'preview', project);
    let preview: Preview;
    try {
      preview = await services.generation.previewSettings(project.slug, patchFromForm(request.body as FormBody));
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'invalid_request') throw error;
      return page(request, reply, project, ws, error);
    }
    return page(request, reply, project, ws, undefined, preview);
  });

  app.post(
    '/dashboard/projects/:slug/generate',
    { schema: { hide: true, params: SlugParams, body: Type.Object({ _csrf: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const { project } = await access.project(kit.user(request), request.params.slug, true);
      await app.limitTenantAction(request, reply, 'generate', project);
      await services.generation.generate(project.slug);
      return reply.redirect(`/dashboard/projects/${project.slug}/generation?notice=generated`, 303);
    },
  );

  app.post(
    '/dashboard/entries/:id/regenerate',
    { schema: { hide: true, params: EntryParams, body: Type.Object({ _csrf: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const { entry, project } = await access.entry(kit.user(request), request.params.id, true);
      await app.limitTenantAction(request, reply, 'regenerate', project);
      await services.generation.regenerate(entry.id);
      return reply.redirect(`/dashboard/projects/${project.slug}/review?notice=entry-regenerated`, 303);
    },
  );
};
