import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import yaml from 'js-yaml';
import { configPath, currentContext, kubeconfigOf, loadConfig, redactedConfig, saveConfig } from './config';
import { UsageError } from './errors';
import type { CliIo } from './io';

/** `svcctl config view | use-context NAME | kubeconfig [-o FILE]`. */
export function registerConfig(program: Command, io: CliIo): void {
  const path = () => configPath(io.env, io.home);
  const config = program
    .command('config')
    .description('Shows and changes the svcctl config file')
    .addHelpText('after', '\nExample:\n  svcctl config view');

  config
    .command('view')
    .description('Prints the config, tokens shown as REDACTED')
    .addHelpText('after', '\nExample:\n  svcctl config view')
    .action(() => io.stdout(yaml.dump(redactedConfig(loadConfig(path())), { lineWidth: -1 })));

  config
    .command('use-context')
    .argument('<name>', 'a context of the config')
    .description('Makes a context the current one')
    .addHelpText('after', '\nExample:\n  svcctl config use-context admin@127.0.0.1:8080')
    .action((name: string) => {
      const loaded = loadConfig(path());
      if (!loaded.contexts.some((c) => c.name === name))
        throw new UsageError(`no context named "${name}" in ${path()}`);
      saveConfig(path(), { ...loaded, 'current-context': name });
      io.stdout(`Switched to context "${name}".\n`);
    });

  config
    .command('kubeconfig')
    .description('Prints a kubeconfig for the current context (server, CA, token) for kubectl')
    .option('-o, --output <file>', 'write it to this file (mode 0600) instead of stdout')
    .addHelpText(
      'after',
      '\nExample:\n  svcctl config kubeconfig -o ~/.kube/svc && KUBECONFIG=~/.kube/svc kubectl get persons',
    )
    .action((opts: { output?: string }, command: Command) => {
      const name = command.optsWithGlobals<{ context?: string }>().context;
      const context = currentContext(loadConfig(path()), name);
      if (!context) throw new UsageError('no current context: run "svcctl login" first');
      const text = yaml.dump(kubeconfigOf(context), { lineWidth: -1 });
      if (opts.output) writeFileSync(opts.output, text, { mode: 0o600 });
      else io.stdout(text);
    });
}
