import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import yaml from 'js-yaml';
import { configPath, currentContext, kubeconfigOf, loadConfig, redactedConfig, saveConfig } from './config';
import { UsageError } from './errors';
import { mergeKubeconfig } from './kubeconfig-merge';
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
    .option(
      '-o, --output <file>',
      'write it into this kubeconfig (made with mode 0600; an existing one keeps its other entries) instead of stdout',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  svcctl config kubeconfig -o ~/.kube/svc && KUBECONFIG=~/.kube/svc kubectl get persons\n  svcctl config kubeconfig -o ~/.kube/config     # added beside your other clusters, made current',
    )
    .action((opts: { output?: string }, command: Command) => {
      const name = command.optsWithGlobals<{ context?: string }>().context;
      const context = currentContext(loadConfig(path()), name);
      if (!context) throw new UsageError('no current context: run "svcctl login" first');
      const kubeconfig = kubeconfigOf(context);
      if (!opts.output) return io.stdout(yaml.dump(kubeconfig, { lineWidth: -1 }));
      const existing = existsSync(opts.output) ? readFileSync(opts.output, 'utf8') : '';
      const merged = mergeKubeconfig(existing, kubeconfig, opts.output);
      writeFileSync(opts.output, yaml.dump(merged, { lineWidth: -1, noRefs: true }), { mode: 0o600 });
      io.stdout(`Context "${context.name}" written to ${opts.output} and made current.\n`);
    });
}
