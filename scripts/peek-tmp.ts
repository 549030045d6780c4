import { readRepository } from '../src/git/local.js';
import { generate } from '../src/generation/engine/engine.js';
import { generateReleases } from '../src/generation/engine/releases.js';
import { resolveSettings } from '../src/generation/settings.js';
import { buildVersionIndex } from '../src/generation/engine/versions.js';
const name = process.argv[2]!;
const { commits } = await readRepository(`/work/wt-releases/tmp/fixtures/${name}.git`, { rev: 'main' });
const settings = resolveSettings({});
let t = performance.now();
const versions = buildVersionIndex(commits);
const r = generate(commits, settings, { types: [], versions });
console.log('prepare', Math.round(performance.now() - t));
for (let k = 0; k < 3; k++) {
t = performance.now();
const v2 = buildVersionIndex(commits);
const notes = generateReleases(commits, settings, { prepared: r.commits, versions: v2 });
console.log('releases', Math.round(performance.now() - t), notes.length);
if (k === 2) for (const n of notes.slice(0, 400)) if (process.argv[3] && new RegExp(process.argv[3]).test(n.tag ?? 'Unreleased')) console.log(n.tag, '<-', n.previous_tag, n.released_at, n.commit_shas.length);
}
