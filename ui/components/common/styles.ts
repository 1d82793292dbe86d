import { css } from 'lit';

/** Base look shared by every view: the design tokens live on :root in index.html. */
export const baseStyles = css`
  :host {
    display: block;
    color: var(--ink);
    font: inherit;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  h1,
  h2,
  h3 {
    margin: 0;
    line-height: 1.25;
  }
  h1 {
    font-size: 1.35rem;
  }
  h2 {
    font-size: 1.05rem;
  }
  h3 {
    font-size: 0.95rem;
  }
  a {
    color: var(--link);
  }
  button,
  input,
  select {
    font: inherit;
    color: inherit;
  }
  input[type='text'],
  input[type='search'],
  input[type='number'],
  select {
    border: 1px solid var(--line-strong);
    border-radius: 6px;
    padding: 0.35rem 0.5rem;
    background: var(--surface);
    min-height: 2.1rem;
    max-width: 100%;
  }
  input:focus-visible,
  select:focus-visible,
  button:focus-visible,
  a:focus-visible,
  [tabindex]:focus-visible {
    outline: 3px solid var(--focus);
    outline-offset: 1px;
  }
  h1[tabindex='-1']:focus {
    outline: none;
  }
  button {
    white-space: nowrap;
    border: 1px solid var(--line-strong);
    background: var(--surface);
    border-radius: 6px;
    padding: 0.35rem 0.75rem;
    min-height: 2.1rem;
    cursor: pointer;
  }
  button:hover:not(:disabled) {
    background: var(--hover);
  }
  button:disabled {
    opacity: 0.5;
    cursor: default;
  }
  button.primary {
    background: var(--accent);
    border-color: var(--accent);
    color: #fff;
  }
  button.primary:hover:not(:disabled) {
    background: var(--accent-dark);
  }
  button.link {
    border: none;
    background: none;
    padding: 0;
    min-height: 0;
    color: var(--link);
    text-decoration: underline;
  }
  .card {
    background: var(--surface);
    border: 1px solid var(--line);
    border-radius: 10px;
    padding: 1rem;
  }
  .muted {
    color: var(--muted);
  }
  .error {
    color: var(--danger);
    background: var(--danger-bg);
    border: 1px solid var(--danger);
    border-radius: 6px;
    padding: 0.5rem 0.75rem;
  }
  .chip {
    display: inline-flex;
    align-items: center;
    gap: 0.25rem;
    background: var(--chip);
    border: 1px solid var(--line);
    border-radius: 999px;
    padding: 0.1rem 0.6rem;
    font-size: 0.85rem;
    white-space: nowrap;
  }
  /* A chip's own button (reverse an ordering, restore a row): a bare glyph, its padding set where it is used. After
     the button rules above, whose hover look it unsets at the same specificity. */
  .chip button.chip-action {
    all: unset;
    cursor: pointer;
  }
  .chip button.chip-action:focus-visible {
    outline: 2px solid var(--focus);
  }
  /* Where a dataset's records came from: a synthetic (generated) dataset must never pass for real data. */
  .source-badge {
    display: inline-block;
    padding: 0.1rem 0.5rem;
    border-radius: 999px;
    border: 1px solid currentColor;
    font-size: 0.8rem;
    font-weight: 600;
    text-decoration: none;
    white-space: nowrap;
  }
  .source-badge.synthetic {
    background: #fff1c2;
    color: #5c3d00;
  }
  .source-badge.real {
    background: #e3f2e6;
    color: #1b5e20;
  }
  .source-badge.imported {
    background: #e8eefc;
    color: #1a3e8c;
  }
  .visually-hidden {
    position: absolute !important;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  table {
    border-collapse: collapse;
    width: 100%;
    font-size: 0.9rem;
  }
  th,
  td {
    text-align: left;
    padding: 0.4rem 0.55rem;
    border-bottom: 1px solid var(--line);
    vertical-align: top;
  }
  th {
    background: var(--surface-2);
    font-weight: 600;
    position: sticky;
    top: 0;
    z-index: 1;
  }
  td.num,
  th.num {
    text-align: right;
    font-variant-numeric: tabular-nums;
  }
  .table-wrap {
    overflow-x: auto;
    border: 1px solid var(--line);
    border-radius: 10px;
    background: var(--surface);
  }
  code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.85em;
    overflow-wrap: anywhere;
  }
`;

/** A figure card: a small upper-case label over a large number (rates summary, websites analysis). */
export const statStyles = css`
  .stat {
    background: var(--surface);
    border: 1px solid var(--line);
    border-radius: 10px;
    padding: 0.55rem 0.75rem;
  }
  .stat dt {
    font-size: 0.78rem;
    color: var(--muted);
    text-transform: uppercase;
    letter-spacing: 0.03em;
  }
  .stat dd {
    margin: 0.15rem 0 0;
    font-size: 1.3rem;
    font-weight: 650;
    font-variant-numeric: tabular-nums;
  }
`;

/** A view's header row: its title and, wrapping under it on a phone, the API link of what it shows. */
export const viewHeaderStyles = css`
  .top {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    align-items: baseline;
    gap: 0.5rem;
    margin-bottom: 0.75rem;
  }
  .api {
    font-size: 0.8rem;
    max-width: 100%;
  }
`;

/** Dense tables of figures (roll-ups, a snapshot diff): smaller type, aligned digits, scrolling under a sticky header. */
export const compactTableStyles = css`
  .wrap {
    overflow: auto;
  }
  table {
    font-size: 0.88rem;
    font-variant-numeric: tabular-nums;
  }
  th,
  td {
    padding: 0.3rem 0.45rem;
  }
  thead th {
    background: var(--surface);
  }
`;

/** A bold label over a text box as wide as its column (the rates search, the title pool). */
export const labelledInputStyles = css`
  label {
    display: block;
    font-weight: 600;
    margin-bottom: 0.25rem;
  }
  input {
    width: 100%;
  }
`;

/** Two choices side by side, each a label over its select, wrapping on a phone (two weeks, two snapshots). */
export const pickerStyles = css`
  .pick {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem 1rem;
    align-items: end;
    margin: 0.6rem 0;
  }
  .pick label {
    display: block;
    font-weight: 600;
    font-size: 0.9rem;
    margin-bottom: 0.25rem;
  }
  /* A long choice (an imported file's name) shrinks its select to the row instead of widening the page. */
  .pick > div {
    min-width: 0;
    max-width: 100%;
  }
`;

/** An SVG chart drawn at the width of its box, and its axis labels (trend chart, price histogram, pool comparison). */
export const chartStyles = css`
  svg {
    width: 100%;
    height: auto;
    display: block;
  }
  .axis {
    fill: var(--muted);
    font-size: 11px;
  }
`;

/** A group of controls under a legend, with no box of its own (the filters, the price check, the trends' choices). */
export const bareFieldsetStyles = css`
  fieldset {
    border: none;
    margin: 0;
    padding: 0;
    min-width: 0;
  }
`;

/** A line of facts as name: value pairs, the value in bold (a contract's summary, a review row's comparables). */
export const factPairStyles = css`
  dl div {
    display: flex;
    gap: 0.35rem;
  }
  dt {
    color: var(--muted);
  }
  dd {
    margin: 0;
    font-weight: 600;
  }
`;
