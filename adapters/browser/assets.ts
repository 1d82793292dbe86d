/**
 * The files a page of one's own serves for `offline-gov-api/browser` (`offline-gov-api copy-assets` writes them), by
 * their paths under the directory it names.
 */
export const BROWSER_ASSETS = {
  manifest: 'data/manifest.json',
  sqlWasm: 'sql-wasm-browser.wasm',
  brotliWasm: 'brotli_dec_wasm_bg.wasm',
} as const;
