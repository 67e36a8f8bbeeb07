import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * This process's identity as a leader-election candidate: host name, process
 * id and a random suffix, unique even when a restarted process gets the same
 * pid (or two containers the same host name and pid).
 * @example candidateIdentity() // 'node-a_4211_9f2c61d0'
 */
export function candidateIdentity(): string {
  return `${hostname()}_${process.pid}_${randomBytes(4).toString('hex')}`;
}
