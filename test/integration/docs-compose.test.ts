import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';

// The docs are followed in order (README, security.md, then kubectl.md): an object one of them applies again must
// say what the earlier one made it, or the later step silently undoes the earlier (svcctl apply sets an object to
// what the file says).

const doc = (name: string) => readFileSync(join(__dirname, '..', '..', 'docs', name), 'utf8');

/** The JSON body of the first curl `-d '…'` in security.md that creates the object named `name` at `path`. */
function createdInSecurityDoc(path: string, name: string): Record<string, any> {
  const text = doc('security.md');
  const pattern = new RegExp(
    `-X POST \\$SVC${path.replace(/\//g, '\\/')} \\\\\\n\\s+-d '(\\{"metadata":\\{"name":"${name}"\\}.*?)'`,
  );
  const found = pattern.exec(text);
  if (!found) throw new Error(`docs/security.md creates no ${path} ${name} with curl -d`);
  return JSON.parse(found[1]) as Record<string, any>;
}

/** The documents kubectl.md writes into data/ada.yaml, by kind. */
function kubectlDocAdaFile(): Record<string, Record<string, any>> {
  const found = /cat > data\/ada\.yaml <<'YAML'\n([\s\S]*?)\nYAML\n/.exec(doc('kubectl.md'));
  if (!found) throw new Error('docs/kubectl.md writes no data/ada.yaml');
  const docs = yaml.loadAll(found[1]) as Record<string, any>[];
  return Object.fromEntries(docs.map((d) => [d.kind, d]));
}

it("kubectl.md's ada is security.md's ada: applying it after security.md changes nothing of hers", () => {
  const ada = createdInSecurityDoc('/api/v1alpha1/users', 'ada');
  expect(kubectlDocAdaFile().User.spec).toEqual(ada.spec);
});

it("kubectl.md's person-reader role and ada's binding of it are security.md's", () => {
  const file = kubectlDocAdaFile();
  const binding = createdInSecurityDoc('/api/v1alpha1/rolebindings', 'ada-person-reader');
  expect(file.RoleBinding).toMatchObject({ metadata: { name: binding.metadata.name }, roleRef: binding.roleRef });
  expect(file.RoleBinding.subjects).toEqual(binding.subjects);
  expect(file.Role.rules).toEqual([
    { apiGroups: ['example.com'], resources: ['persons'], verbs: ['get', 'list', 'watch'] },
  ]);
  expect(doc('security.md')).toContain(
    'metadata: {name: person-reader}\nrules:\n  - {apiGroups: ["example.com"], resources: ["persons"], verbs: ["get", "list", "watch"]}',
  );
});
