// cli-table3's own measure of a cell (ANSI codes stripped, wide characters counted twice), so that
// the widths idm decides are the widths cli-table3 draws. The module has no typings of its own.
// A CommonJS module: taken through its default export, the one the bundle's chunk keeps.
declare module 'cli-table3/src/utils.js' {
  const utils: { strlen(text: string): number };
  export default utils;
}
