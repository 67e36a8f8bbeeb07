import { ControllerRegistry, type ControllerRegistration } from './controller-registry';

const entry = (name: string, enabledByDefault?: boolean): ControllerRegistration => ({
  name,
  description: `the ${name} controller`,
  enabledByDefault,
  setup: () => undefined,
});

const registry = () =>
  new ControllerRegistry().register(entry('gc')).register(entry('rbac')).register(entry('sample', false));
const names = (selected: ControllerRegistration[]) => selected.map((r) => r.name);

describe('ControllerRegistry.select', () => {
  it.each([
    [['*'], ['gc', 'rbac']],
    [['gc'], ['gc']],
    [
      ['*', 'sample'],
      ['gc', 'rbac', 'sample'],
    ],
    [['*', '-gc'], ['rbac']],
    [
      ['sample', 'gc'],
      ['gc', 'sample'],
    ],
    [[' gc ', ''], ['gc']],
  ])('%j selects %j', (spec, expected) => {
    expect(names(registry().select(spec))).toEqual(expected);
  });

  it('refuses unknown names, listing the known ones', () => {
    expect(() => registry().select(['gc', 'nope', '-nada'])).toThrow(
      'unknown controller(s) "nope", "nada"; known: gc, rbac, sample',
    );
  });

  it('refuses a list that selects nothing', () => {
    expect(() => registry().select(['*', '-gc', '-rbac'])).toThrow(/selects no controller/);
    expect(() => registry().select([''])).toThrow(/selects no controller/);
  });
});

describe('ControllerRegistry.register', () => {
  it('refuses a taken name and a malformed one', () => {
    expect(() => registry().register(entry('gc'))).toThrow(/registered already/);
    expect(() => new ControllerRegistry().register(entry('Not_OK'))).toThrow(/must match/);
  });

  it('lists and finds what was registered, in order', () => {
    expect(
      registry()
        .list()
        .map((r) => r.name),
    ).toEqual(['gc', 'rbac', 'sample']);
    expect(registry().get('rbac')?.description).toBe('the rbac controller');
    expect(registry().get('nope')).toBeUndefined();
  });
});
