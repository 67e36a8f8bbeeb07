import { checkAckSupported } from './acknowledged-writes';

describe('checkAckSupported', () => {
  const info = (version: string, aof: 0 | 1) =>
    `# Server\r\nredis_version:${version}\r\n# Persistence\r\naof_enabled:${aof}\r\n`;

  it('lets primary and replica start on any Redis', () => {
    expect(() => checkAckSupported('replica', info('6.2.0', 0))).not.toThrow();
    expect(() => checkAckSupported('primary', '')).not.toThrow();
  });

  it('refuses aof before Redis 7.2 or without the append-only file, saying why', () => {
    expect(() => checkAckSupported('aof', info('7.0.15', 1))).toThrow(
      'ack=aof needs Redis 7.2 or later (WAITAOF), and this Redis is 7.0; use ack=replica or ack=primary',
    );
    expect(() => checkAckSupported('aof', info('7.2.4', 0))).toThrow(/append-only file .* it is off/);
    expect(() => checkAckSupported('aof', info('7.2.4', 1))).not.toThrow();
    expect(() => checkAckSupported('aof', info('8.0.0', 1))).not.toThrow();
  });
});
