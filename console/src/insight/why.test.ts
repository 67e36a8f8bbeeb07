import { describe, expect, it } from 'vitest';
import { explain, explanationLines } from './why';

describe('"why?" in words', () => {
  it('gives the reason, the closest rules with what failed, and the roles to ask for', () => {
    const lines = explanationLines(
      explain({
        reason: 'no role of user "dora" allows delete persons.example.com "p1"',
        trace: [
          { kind: 'Role', name: 'viewer', message: 'bound by RoleBinding "dora-viewer"; none of its 1 rules allows …' },
          {
            kind: 'Rule',
            name: 'get, list persons.example.com',
            message: 'in Role "viewer": verb delete is not get, list',
          },
        ],
        templates: ['persons-manage'],
      }),
    );
    expect(lines).toEqual([
      'No role of user "dora" allows delete persons.example.com "p1".',
      'Closest rule: get, list persons.example.com — in Role "viewer": verb delete is not get, list.',
      'Roles that would allow it: persons-manage.',
    ]);
  });

  it('says which UI permission is missing when the API would allow the action', () => {
    expect(explanationLines(explain({ missingPermission: 'system:models:manage' }))).toEqual([
      'Your roles do not carry the UI permission "system:models:manage" that offers this action.',
    ]);
  });

  it('says so when the caller holds no role at all (a trace with nothing to rank)', () => {
    expect(explanationLines(explain({ trace: [] }))).toEqual([
      'Closest rule: you hold no role that grants anything here.',
    ]);
  });
});
