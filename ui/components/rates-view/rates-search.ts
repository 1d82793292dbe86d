import { LitElement, html, css, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { live } from 'lit/directives/live.js';
import { dbContext } from '../../api/context.ts';
import type { DbClient } from '../../api/db-client.ts';
import type { SuggestContainsResponse } from '../../api/api-types.ts';
import { baseStyles, labelledInputStyles } from '../common/styles.ts';
import { formatCount } from '../common/format.ts';
import { ratesApiUrl, ratesFilterOnly, SEARCH_FIELDS, type RatesQuery, type SearchField } from '../../state/rates-query.ts';

const FIELD_LABELS: Record<SearchField, string> = {
  labor_category: 'Labor category',
  vendor_name: 'Vendor',
  idv_piid: 'Contract',
};
const PER_FIELD = 6;
const DEBOUNCE_MS = 120;

interface Suggestion {
  field: SearchField;
  value: string;
  count: number;
}

/**
 * Search box with live suggest-contains over labor category, vendor and contract (an ARIA combobox).
 * Enter searches the typed text as a keyword; picking a suggestion searches that exact value.
 */
@customElement('rates-search')
export class RatesSearch extends LitElement {
  static override styles = [
    baseStyles,
    labelledInputStyles,
    css`
      form {
        display: flex;
        gap: 0.5rem;
        align-items: end;
      }
      .box {
        position: relative;
        flex: 1;
      }
      input {
        font-size: 1.05rem;
        min-height: 2.5rem;
      }
      button {
        min-height: 2.5rem;
      }
      [role='listbox'] {
        position: absolute;
        z-index: 20;
        left: 0;
        right: 0;
        top: calc(100% + 4px);
        background: var(--surface);
        border: 1px solid var(--line-strong);
        border-radius: 8px;
        box-shadow: 0 8px 24px rgb(0 0 0 / 0.12);
        max-height: 22rem;
        overflow-y: auto;
        margin: 0;
        padding: 0.25rem 0;
      }
      .group-label {
        font-size: 0.75rem;
        text-transform: uppercase;
        letter-spacing: 0.04em;
        color: var(--muted);
        padding: 0.4rem 0.75rem 0.15rem;
      }
      [role='option'] {
        display: flex;
        justify-content: space-between;
        gap: 1rem;
        padding: 0.35rem 0.75rem;
        cursor: pointer;
      }
      [role='option'][aria-selected='true'],
      [role='option']:hover {
        background: var(--accent-soft);
      }
      .count {
        color: var(--muted);
        font-variant-numeric: tabular-nums;
      }
      mark {
        background: none;
        font-weight: 700;
        color: inherit;
      }
      .current {
        margin-top: 0.35rem;
        font-size: 0.9rem;
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @property({ attribute: false }) query!: RatesQuery;

  @state() private text = '';
  @state() private suggestions: Suggestion[] = [];
  @state() private open = false;
  @state() private active = -1;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private asked = 0;

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('query')) {
      const q = this.query;
      this.text = q.search ? q.search.text : q.keyword;
    }
  }

  private onInput(e: Event): void {
    this.text = (e.target as HTMLInputElement).value;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.suggest(this.text), DEBOUNCE_MS);
  }

  private async suggest(text: string): Promise<void> {
    const ask = ++this.asked;
    const trimmed = text.trim();
    if (trimmed.length < 2) {
      this.suggestions = [];
      this.open = false;
      return;
    }
    const base = { ...ratesFilterOnly(this.query), keyword: '', search: null, exclude: this.query.exclude };
    const answers = await Promise.all(
      SEARCH_FIELDS.map((field) =>
        this.db
          .getJson<SuggestContainsResponse>(ratesApiUrl(base, { 'suggest-contains': `${field}:${trimmed}` }))
          .then((r) => (r.status === 200 ? (r.body.aggregations?.[field]?.buckets ?? []) : []))
          .then((buckets) => buckets.slice(0, PER_FIELD).map((b) => ({ field, value: String(b.key), count: b.doc_count }))),
      ),
    );
    if (ask !== this.asked) return; // a later keystroke has asked again
    this.suggestions = answers.flat();
    this.active = -1;
    this.open = this.suggestions.length > 0 && this.inputFocused(this.renderRoot.querySelector('input'));
  }

  private inputFocused(input: Element | null): boolean {
    return !!input && this.renderRoot instanceof ShadowRoot && this.renderRoot.activeElement === input;
  }

  private onKeyDown(e: KeyboardEvent): void {
    const n = this.suggestions.length;
    if (e.key === 'ArrowDown' && n) {
      e.preventDefault();
      this.open = true;
      this.active = (this.active + 1) % n;
    } else if (e.key === 'ArrowUp' && n) {
      e.preventDefault();
      this.open = true;
      this.active = this.active <= 0 ? n - 1 : this.active - 1;
    } else if (e.key === 'Escape' && this.open) {
      e.preventDefault();
      this.close();
    } else if (e.key === 'Enter' && this.open && this.active >= 0) {
      e.preventDefault();
      this.pick(this.suggestions[this.active]);
    }
  }

  private close(): void {
    this.open = false;
    this.active = -1;
  }

  private pick(s: Suggestion): void {
    this.asked++;
    this.close();
    this.text = s.value;
    this.dispatchEvent(new RatesSearchEvent('', { field: s.field, text: s.value }));
  }

  private submit(e: Event): void {
    e.preventDefault();
    this.asked++;
    this.close();
    this.dispatchEvent(new RatesSearchEvent(this.text.trim(), null));
  }

  private clear(): void {
    this.asked++;
    this.text = '';
    this.suggestions = [];
    this.close();
    this.dispatchEvent(new RatesSearchEvent('', null));
  }

  private highlight(value: string) {
    const at = value.toLowerCase().indexOf(this.text.trim().toLowerCase());
    if (at < 0 || !this.text.trim()) return value;
    const end = at + this.text.trim().length;
    return html`${value.slice(0, at)}<mark>${value.slice(at, end)}</mark>${value.slice(end)}`;
  }

  override render() {
    const q = this.query;
    const activeId = this.open && this.active >= 0 ? `opt-${this.active}` : '';
    let index = 0;
    return html`<form role="search" @submit=${this.submit}>
        <div class="box">
          <label for="q">Search labor categories, vendors or contracts</label>
          <input
            id="q"
            type="text"
            role="combobox"
            autocomplete="off"
            spellcheck="false"
            placeholder="e.g. engineer, program manager, a vendor or contract number"
            aria-autocomplete="list"
            aria-controls="suggestions"
            aria-expanded=${this.open ? 'true' : 'false'}
            aria-activedescendant=${activeId || nothing}
            .value=${live(this.text)}
            @input=${this.onInput}
            @keydown=${this.onKeyDown}
            @blur=${() => setTimeout(() => this.close(), 150)}
          />
          <div id="suggestions" role="listbox" aria-label="Suggestions" ?hidden=${!this.open}>
            ${SEARCH_FIELDS.map((field) => {
              const items = this.suggestions.filter((s) => s.field === field);
              if (!items.length) return nothing;
              return html`<div role="group" aria-labelledby="g-${field}">
                <div class="group-label" id="g-${field}" role="presentation">${FIELD_LABELS[field]}</div>
                ${items.map((s) => {
                  const i = index++;
                  return html`<div
                    role="option"
                    id="opt-${i}"
                    aria-selected=${i === this.active ? 'true' : 'false'}
                    @mousedown=${(e: Event) => e.preventDefault()}
                    @click=${() => this.pick(s)}
                  >
                    <span>${this.highlight(s.value)}</span><span class="count">${formatCount(s.count)}</span>
                  </div>`;
                })}
              </div>`;
            })}
          </div>
        </div>
        <button type="submit" class="primary">Search</button>
        ${q.keyword || q.search ? html`<button type="button" @click=${this.clear}>Clear</button>` : nothing}
      </form>
      ${q.search ? html`<p class="current">Exact ${FIELD_LABELS[q.search.field].toLowerCase()}: <span class="chip">${q.search.text}</span></p>` : nothing}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'rates-search': RatesSearch;
  }
  interface HTMLElementEventMap {
    'rates-search': RatesSearchEvent;
  }
}

/** The user chose a free-text keyword, an exact value from the suggestions, or cleared both. */
export class RatesSearchEvent extends Event {
  constructor(
    readonly keyword: string,
    readonly search: { field: SearchField; text: string } | null,
  ) {
    super('rates-search', { bubbles: true, composed: true });
  }
}
