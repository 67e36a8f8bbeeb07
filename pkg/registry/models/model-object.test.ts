import { modelFromObject } from './model-object';

const modelObject = (indexes: unknown[]) => ({
  apiVersion: 'apiextensions.svc.run/v1alpha1',
  kind: 'Model',
  metadata: { name: 'persons.example.com' },
  spec: { group: 'example.com', version: 'v1alpha1', names: { kind: 'Person', plural: 'persons' }, indexes },
});

describe('modelFromObject', () => {
  it('reads declared indexes with their options: unique, order, and value sets for O(page) filtered pages', () => {
    const model = modelFromObject(
      modelObject([
        { name: 'spec.team', path: 'spec.team', valueSets: true },
        { name: 'spec.email', path: 'spec.email', unique: true, order: 'DESC' },
      ]),
    );
    const [team, email] = model.indexes ?? [];
    expect(team).toMatchObject({ name: 'spec.team', unique: false, order: 'ASC', valueSets: true });
    expect(email).toMatchObject({ name: 'spec.email', unique: true, order: 'DESC', valueSets: false });
    expect(team.indexFunc({ apiVersion: 'x', kind: 'Person', metadata: {}, spec: { team: 'engines' } })).toEqual([
      'engines',
    ]);
  });
});
