/**
 * Selectors and user-level actions of the console's main screen. Specs say what a person does
 * ("run the query", "open the SQL view"); how to find it on the page lives only here, including
 * the few Monaco class names (suggest widget, squiggles) that have no role to select by.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { BrowserGlobals } from './browser-globals.ts';

export class ConsolePage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  // Views
  /** Shows a view of the workbench from the rail. */
  async showView(name: 'Query' | 'Upload' | 'Streams' | 'History' | 'Saved' | 'Diff' | 'Docs'): Promise<void> {
    await this.page.getByRole('tablist', { name: 'Views' }).getByRole('tab', { name }).click();
    await expect(this.viewPanel(name)).toBeVisible();
    // A view's chunk may still be loading: wait for the view itself, not its placeholder.
    await expect(this.viewPanel(name).getByTestId('view-loading')).toHaveCount(0);
  }
  viewPanel(name: string): Locator {
    return this.page.getByRole('tabpanel', { name });
  }

  // Sidebar
  get sidebar(): Locator {
    return this.page.getByRole('navigation', { name: 'Connections' });
  }
  connection(name: string): Locator {
    return this.sidebar.getByRole('listitem', { name });
  }
  /** The connection's main button: a click points the current tab at it. */
  connectionButton(name: string): Locator {
    return this.connection(name).getByRole('button').first();
  }
  connectionUser(name: string): Locator {
    return this.connection(name).getByTestId('connection-user');
  }
  get addConnectionButton(): Locator {
    return this.sidebar.getByRole('button', { name: 'Add connection' });
  }
  get connectionDialog(): Locator {
    return this.page.getByTestId('connection-form');
  }
  get signInDialog(): Locator {
    return this.page.getByTestId('sign-in-form');
  }

  // Editor
  get editor(): Locator {
    return this.page.getByTestId('query-editor');
  }
  get editorText(): Locator {
    return this.editor.locator('.view-lines');
  }
  get editorTabs(): Locator {
    return this.page.getByTestId('editor-tab');
  }
  get newTabButton(): Locator {
    return this.page.getByRole('button', { name: 'New tab' });
  }
  /** The bar above the editor: connection, templates, format… and Run. */
  get queryToolbar(): Locator {
    return this.page.getByTestId('query-toolbar');
  }
  /** The controls and badges of that bar, each a box on one of its rows. */
  get queryToolbarItems(): Locator {
    return this.queryToolbar.locator('button, select, [data-testid="run-target"]');
  }
  get runButton(): Locator {
    return this.page.getByRole('button', { name: /^(Run|Running…) (Ctrl|⌘)/ });
  }
  get connectionSelect(): Locator {
    return this.page.getByLabel('Connection of this tab');
  }
  get queryInfoLevel(): Locator {
    return this.page.getByLabel('query_info_level');
  }
  get schemaState(): Locator {
    return this.page.getByTestId('schema-state');
  }
  get suggestions(): Locator {
    return this.editor.locator('.suggest-widget.visible .monaco-list-row');
  }
  suggestion(label: string): Locator {
    return this.suggestions.filter({ hasText: new RegExp(`^\\s*${label}`) }).first();
  }
  get errorSquiggles(): Locator {
    return this.editor.locator('.squiggly-error');
  }
  get hover(): Locator {
    return this.page.locator('.monaco-hover:not(.hidden)');
  }
  /** A token of the editor's text, e.g. `"limit"`. */
  editorToken(text: string): Locator {
    return this.editorText.locator('span span', { hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).first();
  }
  /** Hovers a token of the editor's text, after the previous hover has gone. */
  async hoverToken(text: string): Promise<void> {
    await this.page.mouse.move(0, 0);
    await expect(this.hover).toHaveCount(0);
    await this.editorToken(text).hover();
  }

  // Docs
  get docsPage(): Locator {
    return this.page.getByTestId('docs-page');
  }
  /** The list of the page's sections beside it, where the view has the room. */
  get docsContents(): Locator {
    return this.page.getByRole('navigation', { name: 'Contents' });
  }
  /** A section heading of the Docs view, by its anchor. */
  docsHeading(anchor: string): Locator {
    return this.docsPage.locator(`[id="${anchor}"]`);
  }

  // Saving a tab into a collection (Ctrl/Cmd+S)
  get saveDialog(): Locator {
    return this.page.getByTestId('save-dialog');
  }
  get saveInto(): Locator {
    return this.saveDialog.getByLabel('Save into');
  }
  get saveName(): Locator {
    return this.saveDialog.getByLabel('Query name');
  }
  get savePath(): Locator {
    return this.saveDialog.getByTestId('save-path');
  }
  /** Ctrl/Cmd+S with the caret in the editor. */
  async saveTab(): Promise<void> {
    await this.editor.locator('.view-lines').click();
    await this.page.keyboard.press('ControlOrMeta+S');
  }

  // Safety: kinds, read-only mode, Cancel
  /** The kind (and read-only mark) beside the Run button. */
  get runTarget(): Locator {
    return this.page.getByTestId('run-target');
  }
  connectionKind(name: string): Locator {
    return this.connection(name).getByTestId('connection-kind');
  }
  get cancelButton(): Locator {
    return this.page.getByRole('button', { name: /^Cancel Esc/ });
  }
  get refusal(): Locator {
    return this.page.getByTestId('write-refused');
  }
  get runAnywayButton(): Locator {
    return this.refusal.getByRole('button', { name: 'Run once anyway' });
  }
  get runAnywayDialog(): Locator {
    return this.page.getByTestId('run-anyway-dialog');
  }
  get cancelled(): Locator {
    return this.page.getByTestId('response-cancelled');
  }
  get failure(): Locator {
    return this.page.getByTestId('response-failed');
  }
  get toasts(): Locator {
    return this.page.locator('.toaster .toast');
  }

  // Response
  get status(): Locator {
    return this.page.getByTestId('response-status');
  }
  view(name: 'Table' | 'JSON' | 'Errors' | 'SQL' | 'Raw'): Locator {
    return this.page.getByRole('tablist', { name: 'Response views' }).getByRole('tab', { name: new RegExp(`^${name}`) });
  }
  get subqueryTabs(): Locator {
    return this.page.getByRole('tablist', { name: 'Subqueries' }).getByRole('tab');
  }
  subquery(name: string): Locator {
    return this.page.getByRole('tablist', { name: 'Subqueries' }).getByRole('tab', { name: new RegExp(`^${name}`) });
  }
  /** The line of the response's status, time and size, with its actions. */
  get responseHeader(): Locator {
    return this.status.locator('xpath=..');
  }
  /** The bar on top of a view other than Query (its name, hint and connection picker). */
  viewHeader(name: string): Locator {
    return this.viewPanel(name).getByTestId('view-head');
  }
  get extras(): Locator {
    return this.page.getByTestId('extras-summary');
  }
  get table(): Locator {
    return this.page.getByTestId('payload-table');
  }
  get tableRows(): Locator {
    return this.table.getByRole('rowgroup').getByRole('row');
  }
  columnHeader(name: string): Locator {
    return this.table.getByRole('columnheader', { name, exact: true });
  }
  get jsonTree(): Locator {
    return this.page.getByTestId('json-tree');
  }
  get errorsList(): Locator {
    return this.page.getByTestId('errors-list');
  }
  get rawBody(): Locator {
    return this.page.getByTestId('raw-body');
  }
  /** The search bar of the response pane (Ctrl/Cmd+F there). */
  get responseSearch(): Locator {
    return this.page.getByRole('search', { name: 'Search the response' });
  }
  get responseSearchInput(): Locator {
    return this.responseSearch.getByRole('searchbox', { name: 'Search the response' });
  }
  get searchCount(): Locator {
    return this.responseSearch.getByTestId('search-count');
  }
  /** The table cell or tree row of the current match. */
  get currentMatch(): Locator {
    return this.page.locator('[data-match="current"]');
  }
  get sqlStatements(): Locator {
    return this.page.getByTestId('sql-statement');
  }

  /**
   * Adds a remote connection and signs in to it, as a person does from the sidebar. A remote
   * connection is production (read-only) unless a kind is chosen; specs that write pick development.
   */
  async addConnection(name: string, url: string, user: { username: string; password: string }, options: { kind?: 'development' | 'staging' | 'production' } = {}): Promise<void> {
    await this.addConnectionButton.click();
    await this.connectionDialog.getByLabel('Name').fill(name);
    await this.connectionDialog.getByLabel('Server URL').fill(url);
    if (options.kind) await this.connectionDialog.getByLabel('Kind').selectOption(options.kind);
    await this.connectionDialog.getByRole('button', { name: 'Add connection' }).click();
    await this.signInDialog.getByLabel('Username').fill(user.username);
    await this.signInDialog.getByLabel('Password').fill(user.password);
    await this.signInDialog.getByRole('button', { name: 'Sign in' }).click();
    await expect(this.signInDialog).toBeHidden();
    await expect(this.connectionUser(name)).toHaveText(user.username);
  }

  /** Signs the embedded connection in as another user (a demo user). */
  async signInEmbeddedAs(user: { username: string; password: string }): Promise<void> {
    await this.connection('Embedded server').getByRole('button', { name: 'Sign in as…' }).click();
    await this.signInDialog.getByLabel('Username').fill(user.username);
    await this.signInDialog.getByLabel('Password').fill(user.password);
    await this.signInDialog.getByRole('button', { name: 'Sign in' }).click();
    await expect(this.connectionUser('Embedded server')).toHaveText(user.username);
  }

  /** Runs a query in the current tab on the named connection and waits for its answer's status. */
  async runOn(connectionName: string, query: object, status: RegExp = /^20\d/): Promise<void> {
    await this.showView('Query');
    await this.connectionSelect.selectOption({ label: connectionName });
    await this.setQuery(query);
    await this.run();
    await expect(this.status).toHaveText(status);
  }

  /** Opens the console and waits until the embedded connection is up and the editor is ready. */
  async open(): Promise<void> {
    await this.page.goto('/');
    // The editor first: the connections' health checks wait for it (state/editor-ready.ts). A fresh
    // page compiles the editor's bundle again: on a loaded machine that alone took over 10 s.
    await expect(this.editor.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
    await expect(this.connection('Embedded server').getByTestId('connection-status')).toContainText(/v\d/);
  }

  /**
   * Replaces the editor's document as a paste does. (Typed text would be auto-indented and get
   * auto-closed brackets; a synthetic paste event needs no clipboard permission.)
   */
  async setQuery(query: string | object): Promise<void> {
    const text = typeof query === 'string' ? query : JSON.stringify(query, null, 2);
    await this.editor.locator('.view-lines').click();
    await this.page.keyboard.press('ControlOrMeta+A');
    await this.paste(text);
  }

  /** Pastes into what has the focus, as Ctrl/Cmd+V does (a synthetic paste event: no clipboard permission). */
  async paste(text: string): Promise<void> {
    await this.page.evaluate((pasted) => {
      const w = globalThis as unknown as BrowserGlobals;
      const data = new w.DataTransfer();
      data.setData('text/plain', pasted);
      w.document.activeElement?.dispatchEvent(new w.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, text);
  }

  /** Puts the caret right after the first occurrence of `snippet`, with the editor's find. */
  async caretAfter(snippet: string): Promise<void> {
    await this.page.keyboard.press('ControlOrMeta+F');
    await this.page.keyboard.insertText(snippet);
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('ArrowRight');
  }

  /** Runs with the keyboard shortcut and waits for the response's status (`timeout`: for a huge answer). */
  async run(timeout?: number): Promise<void> {
    await this.editor.locator('.view-lines').click();
    await this.page.keyboard.press('ControlOrMeta+Enter');
    await expect(this.status).toBeVisible(timeout === undefined ? {} : { timeout });
  }

  /** The document as the editor shows it (Monaco renders spaces as non-breaking). */
  async editorContent(): Promise<string> {
    return (await this.editorText.innerText()).replace(/\u00a0/g, ' ');
  }
}
