import { html, type TemplateResult } from 'lit';

/** The button that opens and closes a view's filters on a narrow screen (the views style `.filter-toggle`). */
export function filterToggle(open: boolean, toggle: () => void): TemplateResult {
  return html`<button type="button" class="filter-toggle" aria-expanded=${open ? 'true' : 'false'} @click=${toggle}>
    ${open ? 'Hide filters' : 'Show filters'}
  </button>`;
}
