import { describe, expect, it } from 'vitest';
import { parseTeamRules, resolveSettings, SettingsError, teamRules } from './settings.js';

describe('team rules', () => {
  it('groups path and author rules by team, in the order teams first appear, and round-trips', () => {
    const teams = parseTeamRules(['packages/compiler/**=Compiler team', 'docs/**=Docs', 'packages/parser/**=Compiler team'], ['alice@example.com=Core', 'bob*=Compiler team']);
    expect(teams).toEqual([
      { team: 'Compiler team', paths: ['packages/compiler/**', 'packages/parser/**'], authors: ['bob*'] },
      { team: 'Docs', paths: ['docs/**'] },
      { team: 'Core', authors: ['alice@example.com'] },
    ]);
    const rules = teamRules(teams);
    expect(parseTeamRules(rules.paths, rules.authors)).toEqual(teams);
    expect(parseTeamRules([], [])).toEqual([]);
  });

  it('reports every malformed rule at once', () => {
    const error = (() => {
      try {
        parseTeamRules(['no-team', '=Nobody', 'ok/**=Team'], ['alice@example.com=']);
      } catch (e) {
        return e;
      }
    })() as SettingsError;
    expect(error).toBeInstanceOf(SettingsError);
    expect(error.problems).toHaveLength(3);
    expect(error.problems.join('\n')).toMatch(/"no-team"[\s\S]*"=Nobody"[\s\S]*"alice@example.com="/);
  });

  it('validates stored mappings: a team needs a name and a path or author', () => {
    expect(() => resolveSettings({ teams: [{ team: ' ', paths: ['a/**'] }, { team: 'Empty', paths: [], authors: [' '] }] })).toThrow(
      /needs a team name[\s\S]*"Empty" needs at least one path or author/,
    );
    expect(resolveSettings({ teams: [{ team: ' Core ', authors: [' alice@example.com '] }] }).teams).toEqual([{ team: 'Core', authors: ['alice@example.com'] }]);
  });
});
