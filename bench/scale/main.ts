import { hostInfo, describeHost } from '../support/machine-info';
import { runLabelPageHttp } from './label-page-http';
import { parseScaleOptions } from './options';
import { runStorageScale } from './storage-scale';
import { runConditionUnions } from './condition-unions';

/** The scale benchmark (bench/README.md, "scale"): `node dist/bench/scale/main.js [--only http,storage] …`. */
async function main(): Promise<void> {
  const options = parseScaleOptions(process.argv);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`scale benchmark, ${new Date().toISOString()}`);
  for (const line of describeHost(hostInfo())) out(line);
  out(`Settings: ${JSON.stringify(options)}\n`);
  if (options.only.includes('http')) {
    await runLabelPageHttp({ objects: options.httpObjects, requests: options.requests, runs: options.runs }, out);
    out('');
  }
  if (options.only.includes('storage')) await runStorageScale(options.sizes, options, out);
  if (options.only.includes('unions')) await runConditionUnions(options.sizes, out);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
