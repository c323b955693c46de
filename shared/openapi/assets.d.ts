/**
 * Text imports of the docs page's assets (`import css from '…' with { type: 'text' }`):
 * esbuild inlines the file's contents as a string.
 */
declare module 'swagger-ui-dist/swagger-ui.css' {
  const text: string;
  export default text;
}
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const text: string;
  export default text;
}
