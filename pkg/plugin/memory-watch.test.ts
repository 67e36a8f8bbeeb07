import { memoryExceeded } from './memory-watch';

const MiB = 1024 * 1024;

describe('memoryExceeded', () => {
  it('counts Buffers (external memory) with the heap against the limit, and names the limit', () => {
    expect(memoryExceeded({ heapUsed: 40 * MiB, external: 80 * MiB }, 128)).toBeUndefined();
    expect(memoryExceeded({ heapUsed: 20 * MiB, external: 200 * MiB }, 128)).toBe(
      'the plugin went past its memory limit of 128 MiB (heap 20 MiB and Buffers 200 MiB); its worker was stopped',
    );
  });
});
