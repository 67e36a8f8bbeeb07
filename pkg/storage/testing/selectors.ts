import type { Storage } from '../interface';
import type { FieldRequirement, LabelRequirement, ListOptions } from '../query';
import { COLOR_INDEX, listNames, widget } from './fixtures';
import { expectStorageError } from './expect-error';
import type { Harness } from './harness';

const label = (key: string, op: LabelRequirement['op'], ...values: string[]): LabelRequirement => ({ key, op, values });
const field = (name: string, op: FieldRequirement['op'], ...values: string[]): FieldRequirement => ({
  field: name,
  op,
  values,
});

/** A query, what it must return (sorted by name), and what to call it when it fails. */
type SelectorCase = [title: string, options: ListOptions, expected: string[]];

/** Runs a table of queries, reporting every case's name next to its result. */
async function expectCases(storage: Storage, type: string, cases: SelectorCase[]): Promise<void> {
  const sort = [{ index: 'metadata.name', direction: 'asc' as const }];
  for (const [title, options, expected] of cases) {
    const result = await storage.list(type, { ...options, sort });
    const actual = { title, names: result.items.map((o) => o.metadata.name), total: result.total };
    expect(actual).toEqual({ title, names: expected, total: expected.length });
  }
}

/** Every label and field selector operator, ANDed combinations, and Invalid for non-indexes. */
export function describeSelectors(h: Harness): void {
  describe('selectors', () => {
    async function population() {
      const { storage, type } = await h.widgets();
      await storage.create(
        type,
        widget('ada', { color: 'red' }, { env: 'prod', tier: 'web', 'example.com/team': 'core' }),
      );
      await storage.create(type, widget('grace', { color: 'blue' }, { env: 'dev', tier: 'web' }));
      await storage.create(type, widget('ken', { color: 'green' }, { tier: 'db', environment: 'test' }));
      await storage.create(type, widget('linus', { color: 'red' }, { env: 'staging', environment: 'prod' }));
      await storage.create(type, widget('margaret'));
      return { storage, type };
    }

    it('label operators: =, !=, in, notin, exists, !exists', async () => {
      const { storage, type } = await population();
      await expectCases(storage, type, [
        ['env=prod', { labelSelector: [label('env', 'in', 'prod')] }, ['ada']],
        ['env=pro matches no value prefix', { labelSelector: [label('env', 'in', 'pro')] }, []],
        [
          'env!=prod matches objects without env',
          { labelSelector: [label('env', 'notin', 'prod')] },
          ['grace', 'ken', 'linus', 'margaret'],
        ],
        ['env in (prod,dev)', { labelSelector: [label('env', 'in', 'prod', 'dev')] }, ['ada', 'grace']],
        [
          'env notin (prod,dev)',
          { labelSelector: [label('env', 'notin', 'prod', 'dev')] },
          ['ken', 'linus', 'margaret'],
        ],
        ['env (exists) is not environment', { labelSelector: [label('env', 'exists')] }, ['ada', 'grace', 'linus']],
        ['!env', { labelSelector: [label('env', '!exists')] }, ['ken', 'margaret']],
        ['environment', { labelSelector: [label('environment', 'exists')] }, ['ken', 'linus']],
        ['prefixed key =', { labelSelector: [label('example.com/team', 'in', 'core')] }, ['ada']],
        ['prefixed key exists', { labelSelector: [label('example.com/team', 'exists')] }, ['ada']],
        [
          'unknown key !=',
          { labelSelector: [label('nope', 'notin', 'x')] },
          ['ada', 'grace', 'ken', 'linus', 'margaret'],
        ],
      ]);
    });

    it('several label requirements are ANDed', async () => {
      const { storage, type } = await population();
      await expectCases(storage, type, [
        [
          'env in (prod,dev), tier=web',
          { labelSelector: [label('env', 'in', 'prod', 'dev'), label('tier', 'in', 'web')] },
          ['ada', 'grace'],
        ],
        ['env, tier!=web', { labelSelector: [label('env', 'exists'), label('tier', 'notin', 'web')] }, ['linus']],
        ['tier, !env', { labelSelector: [label('tier', 'exists'), label('env', '!exists')] }, ['ken']],
        ['env=prod, tier=db', { labelSelector: [label('env', 'in', 'prod'), label('tier', 'in', 'db')] }, []],
      ]);
    });

    it('field operators on the default metadata.name index', async () => {
      const { storage, type } = await population();
      await expectCases(storage, type, [
        ['name=ada', { fieldSelector: [field('metadata.name', 'in', 'ada')] }, ['ada']],
        ['name=(ada,linus)', { fieldSelector: [field('metadata.name', 'in', 'ada', 'linus')] }, ['ada', 'linus']],
        ['name=(ada,nobody)', { fieldSelector: [field('metadata.name', 'in', 'ada', 'nobody')] }, ['ada']],
        [
          'name!=ada',
          { fieldSelector: [field('metadata.name', 'notin', 'ada')] },
          ['grace', 'ken', 'linus', 'margaret'],
        ],
        [
          'name notin (ada,grace)',
          { fieldSelector: [field('metadata.name', 'notin', 'ada', 'grace')] },
          ['ken', 'linus', 'margaret'],
        ],
      ]);
    });

    it('field operators on a custom index; notin matches objects lacking the value', async () => {
      const { storage, type } = await population();
      await expectCases(storage, type, [
        ['color=red', { fieldSelector: [field(COLOR_INDEX, 'in', 'red')] }, ['ada', 'linus']],
        ['color=re matches no value prefix', { fieldSelector: [field(COLOR_INDEX, 'in', 're')] }, []],
        ['color=(red,green)', { fieldSelector: [field(COLOR_INDEX, 'in', 'red', 'green')] }, ['ada', 'ken', 'linus']],
        ['color!=red', { fieldSelector: [field(COLOR_INDEX, 'notin', 'red')] }, ['grace', 'ken', 'margaret']],
        [
          'color notin (red,blue)',
          { fieldSelector: [field(COLOR_INDEX, 'notin', 'red', 'blue')] },
          ['ken', 'margaret'],
        ],
      ]);
    });

    it('field and label requirements together are ANDed', async () => {
      const { storage, type } = await population();
      await expectCases(storage, type, [
        [
          'color=red, env=prod',
          { fieldSelector: [field(COLOR_INDEX, 'in', 'red')], labelSelector: [label('env', 'in', 'prod')] },
          ['ada'],
        ],
        [
          'color!=blue, name=(grace,margaret)',
          { fieldSelector: [field(COLOR_INDEX, 'notin', 'blue'), field('metadata.name', 'in', 'grace', 'margaret')] },
          ['margaret'],
        ],
        [
          'color=(red,blue), !environment, tier=web',
          {
            fieldSelector: [field(COLOR_INDEX, 'in', 'red', 'blue')],
            labelSelector: [label('environment', '!exists'), label('tier', 'in', 'web')],
          },
          ['ada', 'grace'],
        ],
      ]);
    });

    it('a field selector on a field that is no index is Invalid, naming it and the indexes', async () => {
      const { storage, type } = await population();
      const err = await expectStorageError(
        storage.list(type, { fieldSelector: [field('spec.note', 'in', 'x')] }),
        'Invalid',
      );
      expect(err.message).toContain('spec.note');
      expect(err.message).toContain(COLOR_INDEX);
      expect(err.message).toContain('metadata.name');
    });

    it('a sort on a field that is no index is Invalid, naming it', async () => {
      const { storage, type } = await population();
      const err = await expectStorageError(
        storage.list(type, { sort: [{ index: 'spec.note', direction: 'asc' }] }),
        'Invalid',
      );
      expect(err.message).toContain('spec.note');
      expect(await listNames(storage, type, { sort: [{ index: COLOR_INDEX, direction: 'asc' }] })).toHaveLength(5);
    });

    it.each<[string, ListOptions, string]>([
      ['a negative limit', { limit: -1 }, 'limit must be a non-negative integer, not -1'],
      ['a fractional offset', { offset: 1.5 }, 'offset must be a non-negative integer, not 1.5'],
      [
        'a sort direction other than asc or desc',
        { sort: [{ index: COLOR_INDEX, direction: 'up' as 'asc' }] },
        `sort: the direction of "${COLOR_INDEX}" must be asc or desc`,
      ],
    ])('%s is Invalid with the message every backend gives', async (_what, options, message) => {
      const { storage, type } = await population();
      const err = await expectStorageError(storage.list(type, options), 'Invalid');
      expect(err.message).toBe(message);
    });
  });
}
