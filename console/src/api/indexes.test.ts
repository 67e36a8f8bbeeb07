import { afterEach, describe, expect, it, vi } from 'vitest';
import { sortableIndexes } from './indexes';

afterEach(() => vi.unstubAllGlobals());

describe('sortableIndexes', () => {
  it("adds the indexes a Model object declares to every model's own", async () => {
    const fetch = vi.fn(
      async (_url: string) => new Response(JSON.stringify({ spec: { indexes: [{ name: 'spec.name' }] } })),
    );
    vi.stubGlobal('fetch', fetch);
    expect(await sortableIndexes('example.com', 'persons')).toEqual([
      'metadata.name',
      'metadata.creationTimestamp',
      'spec.name',
    ]);
    expect(fetch.mock.calls[0][0]).toBe('/apis/apiextensions.svc.run/v1alpha1/models/persons.example.com');
  });

  it('asks nothing for platform kinds, which have no Model object, and reads a refusal as none', async () => {
    const fetch = vi.fn(async () => new Response('{"code":403}', { status: 403 }));
    vi.stubGlobal('fetch', fetch);
    expect(await sortableIndexes('', 'roles')).toEqual(['metadata.name', 'metadata.creationTimestamp']);
    expect(await sortableIndexes('plugin.svc.run', 'plugins')).toHaveLength(2);
    expect(fetch).not.toHaveBeenCalled();
    expect(await sortableIndexes('example.com', 'persons')).toHaveLength(2);
  });
});
