import { useEffect, useRef, useState } from 'preact/hooks';

type Loaded = typeof import('./codemirror-yaml');
let loading: Promise<Loaded> | undefined;
/** CodeMirror, fetched once, the first time an editor is shown. */
const loadEditor = () => (loading ??= import('./codemirror-yaml'));

/**
 * A YAML editor: CodeMirror 6 (highlighting, and js-yaml's errors marked where
 * they are) loaded on first use; a plain text area until it is there, or if it
 * cannot load. `label` names it for assistive technology.
 */
export function YamlTextEditor(props: { label: string; value: string; onInput: (text: string) => void }) {
  const host = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  // What the text area holds while CodeMirror loads is what CodeMirror starts from.
  const latest = useRef(props);
  latest.current = props;
  useEffect(() => {
    let view: { destroy(): void } | undefined;
    let gone = false;
    loadEditor().then(
      (editor) => {
        if (gone || !host.current) return;
        const { value, label } = latest.current;
        view = editor.mountYamlEditor(host.current, value, (text) => latest.current.onInput(text), label);
        setReady(true);
      },
      (err: unknown) => console.warn('the YAML editor could not load; a plain text area stays:', err),
    );
    return () => {
      gone = true;
      view?.destroy();
    };
  }, []);
  return (
    <div class="field">
      <span id="yaml-label" class="label">
        {props.label}
      </span>
      <div ref={host} class="code-editor" hidden={!ready} />
      {!ready && (
        <textarea
          aria-labelledby="yaml-label"
          rows={24}
          spellcheck={false}
          value={props.value}
          onInput={(e) => props.onInput((e.target as HTMLTextAreaElement).value)}
        />
      )}
    </div>
  );
}
