import pino from 'pino';
import type { Logger } from '../../pkg/util/log';
import type { PluginContext } from './plugin-context';

/** pino's numeric levels as the plugin log's four (trace with debug, fatal with error). */
function levelOf(level: number): keyof PluginContext['log'] {
  if (level < 30) return 'debug';
  if (level < 40) return 'info';
  if (level < 50) return 'warn';
  return 'error';
}

/**
 * A structured logger, as the controller runtime's informer and reconcile loop take one, that writes through the
 * plugin's `ctx.log`: each line's message, and its other fields as the fields. Every level is passed on; the host
 * decides what it keeps.
 */
export function pluginLogger(log: PluginContext['log']): Logger {
  return pino(
    { level: 'debug', base: undefined, timestamp: false },
    {
      write(line: string) {
        const { level, msg, ...fields } = JSON.parse(line) as { level: number; msg?: string };
        log[levelOf(level)](msg ?? '', fields);
      },
    },
  );
}
