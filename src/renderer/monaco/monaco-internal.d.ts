/** Monaco modules imported for their side effects only, which ship without type declarations. */
declare module 'monaco-editor/internal/common/workers';
