import { commandStats } from './redis-command-time';

describe('commandStats', () => {
  const info = [
    '# Commandstats',
    'cmdstat_eval:calls=3,usec=90,usec_per_call=30.00,rejected_calls=0,failed_calls=0',
    'cmdstat_evalsha:calls=20,usec=3640,usec_per_call=182.00,rejected_calls=0,failed_calls=0',
  ].join('\r\n');

  it('reads the calls and microseconds of the named command, not of one whose name it starts', () => {
    expect(commandStats(info, 'EVALSHA')).toEqual({ calls: 20, micros: 3640 });
    expect(commandStats(info, 'eval')).toEqual({ calls: 3, micros: 90 });
  });

  it('counts a command never called as zero', () => {
    expect(commandStats(info, 'hvals')).toEqual({ calls: 0, micros: 0 });
  });
});
