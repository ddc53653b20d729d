/**
 * The stream inspector's filter box: a small Monaco editor with the same completion and checks as a
 * query's `filter` on that model (monaco/filter-schema.ts). One model per box, keyed by URI.
 */
import { useEffect, useId, useRef, type JSX } from 'react';
import type { DescribeResult } from '../../../shared/protocol.ts';
import { buildFilterSchema } from '../../monaco/filter-schema.ts';
import { monaco } from '../../monaco/monaco.ts';
import { setModelSchema } from '../../monaco/schema-registry.ts';

export function FilterEditor(props: { value: string; onChange: (value: string) => void; namespace: string; describe: DescribeResult | null }): JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const key = `filter-${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  const uri = `inmemory://jql/filter/${key}.json`;

  useEffect(() => {
    const model = monaco.editor.createModel(props.value, 'json', monaco.Uri.parse(uri));
    const editor = monaco.editor.create(host.current!, {
      model,
      theme: 'jql-dark',
      automaticLayout: true,
      minimap: { enabled: false },
      lineNumbers: 'off',
      glyphMargin: false,
      folding: false,
      lineDecorationsWidth: 4,
      fontSize: 12,
      lineHeight: 17,
      tabSize: 2,
      scrollBeyondLastLine: false,
      fixedOverflowWidgets: true,
      renderLineHighlight: 'none',
      overviewRulerLanes: 0,
      quickSuggestions: { other: true, strings: true, comments: false },
      wordBasedSuggestions: 'off',
      ariaLabel: 'Filter',
      placeholder: '{"status": "open"}  ·  Ctrl+Space completes',
    });
    const sub = model.onDidChangeContent(() => onChange.current(model.getValue()));
    return () => {
      sub.dispose();
      editor.dispose();
      model.dispose();
      setModelSchema(key, uri, null);
    };
    // Made once, with the value it starts from: after that the editor owns the text and reports each
    // change. (Writing a lagging prop back into it while typing would move the caret.)
  }, []);

  useEffect(() => {
    setModelSchema(key, uri, props.describe && props.namespace ? buildFilterSchema(props.describe, props.namespace) : null);
  }, [key, uri, props.describe, props.namespace]);

  return <div ref={host} className="filter-editor" data-testid="filter-editor" />;
}
