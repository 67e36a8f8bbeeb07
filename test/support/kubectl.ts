import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';

/** kubectl 1.32 (docs/kubectl.md): the Google Cloud SDK's pinned binary when present, else the one on the PATH. */
export const KUBECTL = existsSync('/usr/lib/google-cloud-sdk/bin/kubectl.1.32')
  ? '/usr/lib/google-cloud-sdk/bin/kubectl.1.32'
  : 'kubectl';

const SDK_BIN = '/usr/lib/google-cloud-sdk/bin';

/**
 * The newest kubectl the machine has (the Google Cloud SDK's `kubectl.1.XX`), else KUBECTL: the one whose
 * client-go turns the streaming list (WatchList) on with `KUBE_FEATURE_WatchListClient=true`.
 */
export const NEWEST_KUBECTL = newestSdkKubectl() ?? KUBECTL;

function newestSdkKubectl(): string | undefined {
  if (!existsSync(SDK_BIN)) return undefined;
  const minors = readdirSync(SDK_BIN)
    .map((name) => /^kubectl\.1\.(\d+)$/.exec(name)?.[1])
    .filter((minor): minor is string => minor !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  return minors.length ? `${SDK_BIN}/kubectl.1.${minors[minors.length - 1]}` : undefined;
}

/** Which kubectl to run and what to add to its environment. */
export interface KubectlOptions {
  binary?: string;
  env?: Record<string, string>;
}

/** What a kubectl run printed, and its exit code. */
export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs kubectl with this kubeconfig; resolves whatever its exit code (throws only when kubectl is missing). */
export function runKubectl(kubeconfig: string, ...args: string[]): Promise<KubectlResult> {
  return runKubectlWith({}, kubeconfig, ...args);
}

/** runKubectl with another binary or more environment. */
export function runKubectlWith(options: KubectlOptions, kubeconfig: string, ...args: string[]): Promise<KubectlResult> {
  const env = { ...process.env, ...options.env };
  return new Promise((resolve, reject) => {
    execFile(options.binary ?? KUBECTL, ['--kubeconfig', kubeconfig, ...args], { env }, (err, stdout, stderr) => {
      const code = (err as { code?: number | string } | null)?.code ?? 0;
      if (code === 'ENOENT')
        reject(new Error('kubectl is needed for this test: install kubectl 1.32 and put it on the PATH'));
      else resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

/** Runs kubectl and answers its stdout; throws with its stderr when it exits non-zero. */
export async function kubectlOk(kubeconfig: string, ...args: string[]): Promise<string> {
  const { code, stdout, stderr } = await runKubectl(kubeconfig, ...args);
  if (code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (exit ${code}): ${stderr}`);
  return stdout;
}

/** Writes a kubeconfig naming `server`, and when given, the CA file to trust and the bearer token to send. */
export function writeKubeconfig(
  file: string,
  cluster: { server: string; certificateAuthority?: string; token?: string },
): void {
  const { server, certificateAuthority, token } = cluster;
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: svc',
      `clusters: [{name: svc, cluster: {server: ${JSON.stringify(server)}${certificateAuthority ? `, certificate-authority: ${JSON.stringify(certificateAuthority)}` : ''}}}]`,
      `users: [{name: svc-user, user: {${token ? `token: ${JSON.stringify(token)}` : ''}}}]`,
      'contexts: [{name: svc, context: {cluster: svc, user: svc-user}}]',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
}

/** A kubectl that runs until stopped (`get -w`): what it printed so far, and how to end it. */
export interface RunningKubectl {
  output: { stdout: string; stderr: string };
  /** Its exit code once it has exited (null when a signal ended it). */
  done: Promise<number | null>;
  /** Ends it (SIGTERM) and resolves once it has exited. */
  stop(): Promise<void>;
}

/** Starts a long-running kubectl (e.g. `get -w`) with this kubeconfig. */
export function startKubectl(options: KubectlOptions, kubeconfig: string, ...args: string[]): RunningKubectl {
  const child = spawn(options.binary ?? KUBECTL, ['--kubeconfig', kubeconfig, ...args], {
    env: { ...process.env, ...options.env },
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString('utf8');
  });
  const done = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    output,
    done,
    stop: async () => {
      child.kill('SIGTERM');
      await done;
    },
  };
}
