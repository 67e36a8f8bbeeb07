import { openStorage, registerBackend } from './backends';
import type { Storage } from './interface';

describe('openStorage', () => {
  it('hands a backend every host of a comma-separated list, the URL showing the first', async () => {
    const seen: { href: string; hosts: readonly string[] }[] = [];
    registerBackend('test+multi', (url, _options, hosts) => {
      seen.push({ href: url.href, hosts });
      return Promise.resolve({} as Storage);
    });
    await openStorage('test+multi://u:p@a:1,b:2,[::1]:3/name/0?x=1');
    await openStorage('test+multi://single:7/');
    expect(seen).toEqual([
      { href: 'test+multi://u:p@a:1/name/0?x=1', hosts: ['a:1', 'b:2', '[::1]:3'] },
      { href: 'test+multi://single:7/', hosts: ['single:7'] },
    ]);
  });

  it('names the scheme it does not know, never the URL', async () => {
    await expect(openStorage('nope://u:secret@h')).rejects.toThrow(/no storage backend for scheme "nope"/);
    await expect(openStorage('nope://u:secret@h')).rejects.not.toThrow(/secret/);
  });
});
