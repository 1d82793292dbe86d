import { LitElement, html, css, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { dbContext } from '../../api/context.ts';
import type { DbClient } from '../../api/db-client.ts';
import type { SuggestContainsResponse } from '../../api/api-types.ts';
import { baseStyles, labelledInputStyles } from '../common/styles.ts';
import { formatCount } from '../common/format.ts';
import { MAX_TITLES, ratesApiUrl, ratesFilterOnly, type RatesQuery } from '../../state/rates-query.ts';

const DEBOUNCE_MS = 150;
const OFFERED = 12;

/**
 * A pool of exact labor-category titles: type part of a title, and the titles containing it (the API's
 * suggest-contains buckets, under the current filters) are offered as chips; each chip picked joins the
 * pool, and the figures are computed over the pool (any of its titles).
 */
@customElement('title-pool')
export class TitlePool extends LitElement {
  static override styles = [
    baseStyles,
    labelledInputStyles,
    css`
      .chips {
        display: flex;
        flex-wrap: wrap;
        gap: 0.35rem;
        margin: 0.5rem 0 0;
        padding: 0;
        list-style: none;
      }
      .offer button {
        border-radius: 999px;
        font-size: 0.85rem;
      }
      .pool li {
        display: inline-flex;
        align-items: center;
        gap: 0.3rem;
        background: var(--accent-soft);
        border: 1px solid var(--accent);
        border-radius: 999px;
        padding: 0.15rem 0.25rem 0.15rem 0.65rem;
        font-size: 0.88rem;
      }
      .pool li button {
        border-radius: 999px;
        padding: 0 0.45rem;
      }
      .count {
        color: var(--muted);
        font-variant-numeric: tabular-nums;
      }
      .limit {
        margin: 0.5rem 0 0;
        font-size: 0.88rem;
      }
      h3 {
        margin-top: 0.6rem;
        font-size: 0.9rem;
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @property({ attribute: false }) query!: RatesQuery;
  /** Each pooled title's matching rates, from the figures (in pool order). */
  @property({ attribute: false }) counts: { title: string; count: number }[] = [];
  /** Titles the link named beyond what a pool holds, left out. */
  @property({ attribute: false }) leftOut = 0;
  @state() private text = '';
  private timer: ReturnType<typeof setTimeout> | null = null;

  private readonly offers = new Task(this, {
    task: async ([text, filters]: [string, string]) => {
      if (text.trim().length < 2) return [];
      const url = `${filters}&suggest-contains=${encodeURIComponent(`labor_category:${text.trim()}`)}`;
      const r = await this.db.getJson<SuggestContainsResponse>(url);
      if (r.status !== 200) return [];
      return (r.body.aggregations.labor_category?.buckets ?? []).slice(0, OFFERED).map((b) => ({ title: String(b.key), count: b.doc_count }));
    },
    args: () => [this.text, ratesApiUrl(ratesFilterOnly({ ...this.query, keyword: '', search: null }))] as [string, string],
  });

  private onInput(e: Event): void {
    const value = (e.target as HTMLInputElement).value;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => (this.text = value), DEBOUNCE_MS);
  }

  private add(title: string): void {
    if (this.query.titles.length >= MAX_TITLES) return;
    if (!this.query.titles.includes(title)) this.dispatchEvent(new TitlePoolChangeEvent([...this.query.titles, title]));
  }

  private removeTitle(title: string): void {
    this.dispatchEvent(new TitlePoolChangeEvent(this.query.titles.filter((t) => t !== title)));
  }

  override render() {
    const pool = this.query.titles;
    const offers = (this.offers.value ?? []).filter((o) => !pool.includes(o.title));
    const countOf = (title: string) => this.counts.find((c) => c.title === title)?.count;
    const full = pool.length >= MAX_TITLES;
    return html`<label for="title-find">Find labor-category titles to pool</label>
      <input id="title-find" type="search" autocomplete="off" placeholder="e.g. engineer" @input=${this.onInput} />
      ${
        offers.length
          ? html`<ul class="chips offer" aria-label="Titles containing “${this.text.trim()}”">
            ${offers.map(
              (o) => html`<li>
                <button type="button" data-offer=${o.title} ?disabled=${full} @click=${() => this.add(o.title)}>
                  + ${o.title} <span class="count">${formatCount(o.count)}</span>
                </button>
              </li>`,
            )}
          </ul>`
          : nothing
      }
      ${
        full
          ? html`<p class="limit" role="status" data-pool-full>
            A pool holds at most ${MAX_TITLES} titles: remove one to add another.
            ${this.leftOut ? html`This link named ${formatCount(this.leftOut)} more, left out.` : nothing}
          </p>`
          : nothing
      }
      <h3 id="pool-h">Pool of exact titles (any of them matches)</h3>
      ${
        pool.length
          ? html`<ul class="chips pool" aria-labelledby="pool-h">
            ${pool.map(
              (title) => html`<li data-title=${title}>
                ${title} <span class="count" data-title-count>${countOf(title) === undefined ? '…' : formatCount(countOf(title))}</span>
                <button type="button" aria-label="Remove ${title} from the pool" @click=${() => this.removeTitle(title)}>×</button>
              </li>`,
            )}
          </ul>`
          : html`<p class="muted">No titles yet: find some above and pick them.</p>`
      }`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'title-pool': TitlePool;
  }
  interface HTMLElementEventMap {
    'title-pool-change': TitlePoolChangeEvent;
  }
}

/** The pool of exact titles changed. */
export class TitlePoolChangeEvent extends Event {
  constructor(readonly titles: string[]) {
    super('title-pool-change', { bubbles: true, composed: true });
  }
}
