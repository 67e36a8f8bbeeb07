import { PassThrough } from 'node:stream';
import type { CliIo } from './io';
import { readHidden } from './io';

/** A terminal's stdin: what is typed arrives as data; raw mode is recorded. */
function terminal(): { stdin: PassThrough & CliIo['stdin']; raw: boolean[] } {
  const raw: boolean[] = [];
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: (on: boolean) => raw.push(on),
  });
  return { stdin, raw };
}

function ioOn(stdin: CliIo['stdin']): { io: CliIo; stderr: () => string } {
  let stderr = '';
  const io: CliIo = {
    stdout: () => undefined,
    stderr: (text) => {
      stderr += text;
    },
    stdin,
    env: {},
    home: '/nowhere',
  };
  return { io, stderr: () => stderr };
}

describe('readHidden (the password prompt of svcctl login)', () => {
  it('reads a line in raw mode without echoing it, backspace taken into account', async () => {
    const { stdin, raw } = terminal();
    const { io, stderr } = ioOn(stdin);
    const read = readHidden(io, 'Password: ');
    stdin.write('secrex');
    stdin.write('\u007ft\r');
    expect(await read).toBe('secret');
    expect(stderr()).toBe('Password: \n');
    expect(raw).toEqual([true, false]);
  });

  it('fails on Ctrl-C, leaving raw mode', async () => {
    const { stdin, raw } = terminal();
    const read = readHidden(ioOn(stdin).io, 'Password: ');
    stdin.write('abc\u0003');
    await expect(read).rejects.toThrow('interrupted');
    expect(raw).toEqual([true, false]);
  });
});
