// The People plugin: a Person model with two indexes, a public read-only API and a console API.

/**
 * The console API, in the annotation style (plain JavaScript: static fields; in TypeScript, the decorators
 * @ApiVersion and @Post from 'svc/plugin'): POST /apis/console.api.people.example.com/v1alpha1/checks
 * checks a Person before it is saved and says what is wrong with it.
 */
class PersonChecks {
  static apiVersion = 'console.api.people.example.com/v1alpha1';
  static routes = [{ method: 'POST', path: '/checks', handler: 'check' }];

  async check(req) {
    // A bad body is the client's error, answered as every svc API answers one, never a throw (a 500).
    let person;
    try {
      person = JSON.parse(await req.text());
    } catch (err) {
      return status(400, 'BadRequest', `the request body must be a JSON Person: ${err.message}`);
    }
    if (!isObject(person)) return status(400, 'BadRequest', 'the request body must be a JSON object (a Person)');
    const wrong = wrongTypes(person.spec);
    if (wrong.length) {
      const summary = wrong.map((c) => `${c.field}: ${c.message}`).join(', ');
      return status(422, 'Invalid', `Person "" is invalid: ${summary}`, wrong);
    }
    const spec = person.spec || {};
    const problems = [];
    if (!spec.name) problems.push('spec.name is missing');
    if (!/^[^@\s]+@[^@\s]+$/.test(spec.email || '')) problems.push('spec.email is not an email address');
    return { valid: problems.length === 0, problems, checkedBy: req.user.name };
  }
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** What in a Person's spec is not of its type: the causes of a 422, each naming its field. */
function wrongTypes(spec) {
  if (spec === undefined || spec === null) return [];
  if (!isObject(spec)) return [{ field: 'spec', reason: 'FieldValueInvalid', message: 'must be an object' }];
  return ['name', 'email']
    .filter((field) => spec[field] !== undefined && typeof spec[field] !== 'string')
    .map((field) => ({ field: `spec.${field}`, reason: 'FieldValueInvalid', message: 'must be a string' }));
}

/** An error as the Kubernetes `Status` every svc API answers with. */
function status(code, reason, message, causes) {
  const body = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (causes) body.details = { kind: 'Person', causes };
  return new Response(JSON.stringify(body), { status: code, headers: { 'content-type': 'application/json' } });
}

module.exports = {
  async start(ctx) {
    // Generated APIs at /apis/people.example.com/v1alpha1/persons. Index functions are shipped to the apiserver
    // and run there on every write: pure, synchronous, using nothing but their argument.
    await ctx.schemes.register(
      {
        group: 'people.example.com',
        version: 'v1alpha1',
        names: { kind: 'Person', singular: 'person', plural: 'persons', shortNames: ['ps'] },
        schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              required: ['name', 'email'],
              properties: { name: { type: 'string' }, email: { type: 'string' } },
            },
          },
        },
        printerColumns: [
          { name: 'Name', type: 'string', jsonPath: '.spec.name' },
          { name: 'Email', type: 'string', jsonPath: '.spec.email' },
        ],
      },
      (ix) =>
        ix
          .add({ name: 'spec.name', indexFunc: (person) => person.spec.name.toLowerCase() })
          .add({ name: 'spec.email', unique: true, indexFunc: (person) => person.spec.email.toLowerCase() }),
    );

    // The public, read-only API: GET /apis/api.people.example.com/v1alpha1/greetings/{name}.
    ctx.routes.get('/apis/api.people.example.com/v1alpha1/greetings/{name}', (req) => ({
      greeting: `${ctx.plugin.settings.greeting}, ${req.params.name}!`,
    }));

    ctx.routes.controller(new PersonChecks());
    ctx.log.info('people is ready');
  },
};
