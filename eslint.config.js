// Lint rules, including the layer map: which src/ folder may import which. The map is
// data here, the way VS Code keeps its layers in its lint config, so a wrong import fails `npm test`.
import { existsSync, readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

const layer = (files, forbidden) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: forbidden.map(({ group, message }) => ({ group, message })),
      },
    ],
  },
});

const notRenderer = { group: ['**/renderer/**'], message: 'Only the renderer imports renderer code.' };
const notServer = { group: ['**/server/**'], message: 'The renderer and shared code never import the server.' };
const notMain = { group: ['**/main/**', '**/preload/**'], message: 'Only Electron code imports main/preload.' };
const notElectron = { group: ['electron', 'electron/*'], message: 'Only src/main and src/preload use electron.' };
const notNode = { group: ['node:*', 'better-sqlite3', 'fastify', '@fastify/*', 'ws'], message: 'Browser code cannot use Node modules.' };
// Database access by kind (docs/architecture.md): one module opens SQLite; the rest use read(),
// write() and afterCommit() of src/server/db/database.ts.
const notSqlite = { group: ['better-sqlite3'], message: 'Only src/server/db/connection.ts imports better-sqlite3: use read()/write() of src/server/db/database.ts (main: openDatabase from server/index.ts).' };

// One rule, one place (docs/architecture.md): the server writes each of these in one module, and a
// second copy fails lint. An envelope's keys are written by query/envelope.ts only (the JSON error
// reply included); text is matched in SQL (LIKE, GLOB) by query/text-match.ts only.
const oneEnvelope = [
  { selector: 'Property[key.name=/^(__errors__|system_info)$/]', message: 'Envelopes are written by src/server/query/envelope.ts (render, failedOutcome); a refusal goes through sendFailure of http/error-reply.ts.' },
  { selector: 'Property[key.value=/^(__errors__|system_info)$/]', message: 'Envelopes are written by src/server/query/envelope.ts (render, failedOutcome); a refusal goes through sendFailure of http/error-reply.ts.' },
];
const oneTextMatch = [
  { selector: 'Literal[value=/\\b(LIKE|GLOB)\\b/]', message: 'Text is matched by textMatch() of src/server/query/text-match.ts, for every processor.' },
  { selector: 'TemplateElement[value.raw=/\\b(LIKE|GLOB)\\b/]', message: 'Text is matched by textMatch() of src/server/query/text-match.ts, for every processor.' },
];
// An intent's canonical key and its controller handler name (`on_<snake_case>`) are made by
// src/shared/intent-key.ts only, for the server and the console alike.
const oneIntentKey = [
  { selector: 'Literal[value=/^on_/]', message: 'Handler names come from handlerNameOf()/intentOfHandler() of src/shared/intent-key.ts.' },
  { selector: 'TemplateElement[value.raw=/^on_/]', message: 'Handler names come from handlerNameOf()/intentOfHandler() of src/shared/intent-key.ts.' },
];
const oneRule = (files, restrictions) => ({
  files,
  ignores: ['**/*.test.ts', 'src/server/testing/**'],
  rules: { 'no-restricted-syntax': ['error', ...restrictions] },
});

/** One entry per folder of src/renderer/features: the map is read from the file system. */
function featureIsolation() {
  const root = 'src/renderer/features';
  const features = existsSync(root) ? readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : [];
  return features.map((feature) => ({
    files: [`${root}/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            notServer,
            notMain,
            notElectron,
            notNode,
            { group: ['**/app/**', '../../app', '../../app/**'], message: 'Features never import app/: app/ composes them.' },
            ...features
              .filter((other) => other !== feature)
              .map((other) => ({
                group: [`**/features/${other}`, `**/features/${other}/**`, `../${other}`, `../${other}/**`],
                message: `Features never import each other (${feature} -> ${other}); move shared code to state/, transport/, response/, monaco/ or components/.`,
              })),
          ],
        },
      ],
    },
  }));
}

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'docs/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // Tests read JSON answers whose shape is what they assert; typing each one adds nothing.
    files: ['**/*.test.ts', '**/*.test.tsx', 'src/server/testing/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  layer(['src/shared/**'], [notRenderer, notServer, notMain, notElectron, notNode]),
  layer(['src/server/**'], [notRenderer, notMain, notElectron, notSqlite]),
  layer(['src/renderer/**'], [notServer, notMain, notElectron, notNode]),
  layer(['src/main/**', 'src/preload/**'], [notRenderer, notSqlite]),
  // The one module that opens SQLite.
  layer(['src/server/db/connection.ts'], [notRenderer, notMain, notElectron]),
  {
    // The processors are siblings: one never reaches into another.
    files: ['src/server/processors/model/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/processors/controller/**', '**/processors/nosql/**'], message: 'Processors never import each other.' }, notRenderer, notMain, notElectron, notSqlite] }] },
  },
  {
    files: ['src/server/processors/nosql/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/processors/controller/**', '**/processors/model/**'], message: 'Processors never import each other.' }, notRenderer, notMain, notElectron, notSqlite] }] },
  },
  {
    files: ['src/server/processors/controller/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/processors/model/**', '**/processors/nosql/**'], message: 'Processors never import each other.' }, notRenderer, notMain, notElectron, notSqlite] }] },
  },
  {
    files: ['src/renderer/features/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [notServer, notMain, notElectron, notNode] }],
    },
  },
  oneRule(['src/server/**/*.ts'], [...oneEnvelope, ...oneTextMatch, ...oneIntentKey]),
  oneRule(['src/server/query/envelope.ts'], [...oneTextMatch, ...oneIntentKey]),
  oneRule(['src/server/query/text-match.ts'], [...oneEnvelope, ...oneIntentKey]),
  oneRule(['src/shared/**/*.ts', 'src/renderer/**/*.ts', 'src/renderer/**/*.tsx'], oneIntentKey),
  { files: ['src/shared/intent-key.ts'], rules: { 'no-restricted-syntax': 'off' } },
  // Renderer: a feature never imports another feature, nor app/ (which composes the features);
  // shared code lives in state/, transport/, response/, monaco/ and components/.
  ...featureIsolation(),
);
