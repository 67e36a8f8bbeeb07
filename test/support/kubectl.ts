import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';

/** kubectl 1.32 (API.md §10): the Google Cloud SDK's pinned binary when present, else the one on the PATH. */
export const KUBECTL = existsSync('/usr/lib/google-cloud-sdk/bin/kubectl.1.32')
  ? '/usr/lib/google-cloud-sdk/bin/kubectl.1.32'
  : 'kubectl';

/** What a kubectl run printed, and its exit code. */
export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs kubectl with this kubeconfig; resolves whatever its exit code (throws only when kubectl is missing). */
export function runKubectl(kubeconfig: string, ...args: string[]): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    execFile(KUBECTL, ['--kubeconfig', kubeconfig, ...args], (err, stdout, stderr) => {
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
