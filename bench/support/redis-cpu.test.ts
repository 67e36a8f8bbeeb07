import { cpuMicrosOf } from './redis-cpu';

describe('cpuMicrosOf', () => {
  it('adds user and system CPU seconds of the server, in microseconds', () => {
    const info = '# CPU\r\nused_cpu_sys:1.250000\r\nused_cpu_user:2.000500\r\nused_cpu_sys_children:9.0\r\n';
    expect(cpuMicrosOf(info)).toBe(3_250_500);
  });

  it('refuses a reply without the fields', () => {
    expect(() => cpuMicrosOf('# CPU\r\n')).toThrow('INFO cpu has no used_cpu_user');
  });
});
