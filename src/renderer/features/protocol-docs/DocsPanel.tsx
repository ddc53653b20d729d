/**
 * The product's own docs inside the console: docs/protocol.md and docs/workspace.md, bundled with the
 * app and rendered as React elements (markdown-to-jsx, raw HTML off), with GitHub's heading anchors so
 * a hover's or an error's link scrolls to its section. Links between the two pages and to their
 * sections stay inside the view; nothing navigates the window. Where the view is wide, the page's
 * sections are listed beside it.
 */
import Markdown, { RuleType } from 'markdown-to-jsx/react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type JSX, type ReactNode } from 'react';
import { headingAnchor, placeOfHref, type DocName, type DocPlace } from '../../components/doc-anchors.ts';
import protocolText from '../../../../docs/protocol.md?raw';
import workspaceText from '../../../../docs/workspace.md?raw';
import styles from './docs.module.css';
import { ScrollableCode } from './ScrollableCode.tsx';

const DOCS: Record<DocName, { title: string; text: string }> = {
  protocol: { title: 'Protocol', text: protocolText },
  workspace: { title: 'Workspace and CLI', text: workspaceText },
};

export interface DocsPanelProps {
  place: DocPlace & { seq: number };
  onNavigate: (place: DocPlace) => void;
}

export function DocsPanel(props: DocsPanelProps): JSX.Element {
  const { place, onNavigate } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const navigate = useRef(onNavigate);
  navigate.current = onNavigate;
  const doc = place.doc;

  const rendered = useMemo(
    () => (
      <Markdown
        options={{
          disableParsingRawHTML: true,
          slugify: (text) => headingAnchor(text),
          overrides: {
            a: { component: (p: { href?: string; children?: ReactNode }) => <DocLink href={p.href ?? ''} current={doc} onNavigate={(to) => navigate.current(to)}>{p.children}</DocLink> },
            pre: { component: ScrollableCode },
          },
          renderRule(next, node) {
            // Images of the docs folder are not bundled: their text stands in.
            if (node.type === RuleType.image) return <span className={styles.missing}>[{node.alt}]</span>;
            return next();
          },
        }}
      >
        {DOCS[doc].text}
      </Markdown>
    ),
    [doc],
  );

  // Scroll to the asked-for section each time one is asked for (seq), once the page is rendered.
  useEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const target = place.anchor ? scroller.querySelector<HTMLElement>(`[id="${CSS.escape(place.anchor)}"]`) : null;
    if (target) {
      target.scrollIntoView({ block: 'start' });
      target.classList.add(styles.flash as string);
      const timer = setTimeout(() => target.classList.remove(styles.flash as string), 1500);
      return () => clearTimeout(timer);
    }
    scroller.scrollTop = 0;
  }, [place.doc, place.anchor, place.seq]);

  // The contents are read from the rendered page, so they carry the very anchors its headings have.
  const [sections, setSections] = useState<Array<{ anchor: string; title: string }>>([]);
  useLayoutEffect(() => {
    const headings = scrollRef.current?.querySelectorAll('h2[id]') ?? [];
    setSections([...headings].map((h) => ({ anchor: h.id, title: h.textContent ?? h.id })));
  }, [rendered]);

  return (
    <div className={styles.docs}>
      <nav className={styles.pages} aria-label="Documents">
        {(Object.keys(DOCS) as DocName[]).map((name) => (
          <button key={name} type="button" className={`btn btn-small${name === doc ? ' is-active' : ''}`} aria-pressed={name === doc} onClick={() => onNavigate({ doc: name, anchor: '' })}>
            {DOCS[name].title}
          </button>
        ))}
      </nav>
      <div className={styles.body}>
        <nav className={styles.contents} aria-label="Contents">
          <ul>
            {sections.map((section) => (
              <li key={section.anchor}>
                <a
                  href={`#${section.anchor}`}
                  onClick={(e) => {
                    e.preventDefault();
                    onNavigate({ doc, anchor: section.anchor });
                  }}
                >
                  {section.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <article ref={scrollRef} className={styles.page} data-testid="docs-page" aria-label={DOCS[doc].title}>
          <div className={styles.text}>{rendered}</div>
        </article>
      </div>
    </div>
  );
}

function DocLink(props: { href: string; current: DocName; onNavigate: (place: DocPlace) => void; children?: ReactNode }): JSX.Element {
  const place = placeOfHref(props.href, props.current);
  if (!place) {
    // A link out of the two pages (another doc, a file of the repository): its text, not a way out of the app.
    return <span className={styles.external} title={props.href}>{props.children}</span>;
  }
  return (
    <a
      href={`#${place.anchor}`}
      onClick={(e) => {
        e.preventDefault();
        props.onNavigate(place);
      }}
    >
      {props.children}
    </a>
  );
}
