// The People plugin's console page (plugin.yaml: spec.console.entry). A plain ES module: the console imports it
// and adds its routes to the menu; it needs no framework. Each route's render(root, ctx) draws into `root` and
// returns what to undo when the page goes away; it is called again when the user's UI permissions change.

const PERSONS = '/apis/people.example.com/v1alpha1/persons';
const VIEW = 'plugin:people:person:view';
const MANAGE = 'plugin:people:person:manage';

export const routes = [
  { path: '/persons', title: 'People', meta: { permissions: [VIEW, MANAGE] }, render: renderPersons },
];

/** `el('button', {type: 'button'}, 'Add')`: an element with attributes (or event handlers, on…) and children. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

function renderPersons(root, ctx) {
  const manage = ctx.hasPermission([MANAGE]);
  const problem = el('p', { role: 'alert' });
  const body = el('tbody');
  const show = (err) => {
    problem.textContent = err ? err.message : '';
  };
  const reload = () =>
    ctx.api('GET', `${PERSONS}?limit=100`).then((list) => {
      // A deleted person is marked first, and gone once its finalizers are done: leave marked ones out.
      const persons = list.items.filter((person) => !person.metadata.deletionTimestamp);
      body.replaceChildren(...persons.map((person) => row(person)));
      if (persons.length === 0) body.append(el('tr', {}, el('td', { colspan: manage ? '3' : '2' }, 'No persons.')));
    }, show);
  const remove = (name) => ctx.api('DELETE', `${PERSONS}/${encodeURIComponent(name)}`).then(reload, show);
  const row = (person) =>
    el(
      'tr',
      {},
      el('td', {}, person.spec.name),
      el('td', {}, person.spec.email),
      ...(manage
        ? [
            el(
              'td',
              {},
              el(
                'button',
                {
                  type: 'button',
                  'aria-label': `Delete ${person.spec.name}`,
                  onclick: () => remove(person.metadata.name),
                },
                'Delete',
              ),
            ),
          ]
        : []),
    );
  const headings = ['Name', 'Email', ...(manage ? ['Actions'] : [])].map((h) => el('th', { scope: 'col' }, h));
  root.append(problem, el('table', {}, el('caption', {}, 'Persons'), el('thead', {}, el('tr', {}, ...headings)), body));
  if (manage) root.append(createForm(ctx, reload, show));
  void reload();
  return () => root.replaceChildren();
}

/** The form that adds a person (shown with plugin:people:person:manage). */
function createForm(ctx, reload, show) {
  const name = el('input', { id: 'people-name', required: '' });
  const email = el('input', { id: 'people-email', type: 'email', required: '' });
  const submit = (event) => {
    event.preventDefault();
    const person = {
      apiVersion: 'people.example.com/v1alpha1',
      kind: 'Person',
      metadata: { generateName: 'person-' },
      spec: { name: name.value, email: email.value },
    };
    ctx.api('POST', PERSONS, person).then(() => {
      name.value = '';
      email.value = '';
      show(undefined);
      return reload();
    }, show);
  };
  return el(
    'form',
    { 'aria-label': 'Add a person', onsubmit: submit },
    el('h2', {}, 'Add a person'),
    el('label', { for: 'people-name' }, 'Name'),
    name,
    el('label', { for: 'people-email' }, 'Email'),
    email,
    el('button', { type: 'submit' }, 'Add person'),
  );
}
