import { cpuMillis, threadCpuMillis } from './process-cpu';

describe('process-cpu', () => {
  it('reads the CPU time of a process and of its main thread, the thread at most the process', () => {
    const thread = threadCpuMillis(process.pid, process.pid);
    const whole = cpuMillis(process.pid);
    expect(typeof thread).toBe('number');
    expect(typeof whole).toBe('number');
    expect(thread!).toBeLessThanOrEqual(whole!);
  });

  it('answers undefined for a thread that does not exist', () => {
    expect(threadCpuMillis(process.pid, 2 ** 30)).toBeUndefined();
  });
});
