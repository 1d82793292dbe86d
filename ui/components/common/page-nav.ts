import { LitElement, html, css } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { baseStyles } from './styles.ts';
import { formatCount } from './format.ts';

/** First / previous / next / last, the position, and the page-size picker. */
@customElement('page-nav')
export class PageNav extends LitElement {
  static override styles = [
    baseStyles,
    css`
      nav {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.5rem;
        justify-content: space-between;
      }
      .buttons {
        display: flex;
        gap: 0.25rem;
        align-items: center;
      }
      .position {
        padding: 0 0.5rem;
        font-variant-numeric: tabular-nums;
      }
      @media (max-width: 480px) {
        /* Arrows alone on a phone; the words stay for screen readers. */
        .word {
          position: absolute;
          width: 1px;
          height: 1px;
          overflow: hidden;
          clip: rect(0 0 0 0);
        }
      }
      label {
        display: flex;
        align-items: center;
        gap: 0.4rem;
      }
    `,
  ];

  @property({ type: Number }) page = 1;
  @property({ type: Number }) pages = 1;
  @property({ type: Number }) pageSize = 25;
  @property({ attribute: false }) sizes: readonly number[] = [25, 50, 100];
  @property() label = 'Pages';
  @property() summary = '';

  private go(page: number): void {
    this.dispatchEvent(new PageChangeEvent(page, this.pageSize));
  }

  override render() {
    const { page, pages } = this;
    return html`<nav aria-label=${this.label}>
      <span class="muted">${this.summary}</span>
      <div class="buttons">
        <button type="button" ?disabled=${page <= 1} @click=${() => this.go(1)}>
          <span aria-hidden="true">«</span><span class="visually-hidden">First page</span>
        </button>
        <button type="button" ?disabled=${page <= 1} @click=${() => this.go(page - 1)}>
          <span aria-hidden="true">‹ </span><span class="word">Previous</span><span class="visually-hidden"> page</span>
        </button>
        <span class="position" aria-live="polite">Page ${formatCount(page)} of ${formatCount(pages)}</span>
        <button type="button" ?disabled=${page >= pages} @click=${() => this.go(page + 1)}>
          <span class="word">Next</span><span class="visually-hidden"> page</span><span aria-hidden="true"> ›</span>
        </button>
        <button type="button" ?disabled=${page >= pages} @click=${() => this.go(pages)}>
          <span aria-hidden="true">»</span><span class="visually-hidden">Last page</span>
        </button>
      </div>
      <label
        >Rows per page
        <select
          @change=${(e: Event) => this.dispatchEvent(new PageChangeEvent(1, Number((e.target as HTMLSelectElement).value)))}
        >
          ${this.sizes.map((s) => html`<option value=${s} .selected=${s === this.pageSize}>${s}</option>`)}
        </select>
      </label>
    </nav>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'page-nav': PageNav;
  }
  interface HTMLElementEventMap {
    'page-change': PageChangeEvent;
  }
}

/** Fired when the user picks another page or page size. */
export class PageChangeEvent extends Event {
  constructor(
    readonly page: number,
    readonly pageSize: number,
  ) {
    super('page-change', { bubbles: true, composed: true });
  }
}
