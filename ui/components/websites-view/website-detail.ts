import { LitElement, html, css, nothing, type TemplateResult } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { dbContext } from '../../api/context.ts';
import type { DbClient, SiteHistory } from '../../api/db-client.ts';
import { errorText, type WebsiteRecord } from '../../api/api-types.ts';
import { baseStyles, viewHeaderStyles } from '../common/styles.ts';
import { lastListHash, websiteApiUrl } from '../../state/websites-query.ts';

/** Fields that hold a bare host name: shown as a link to the site. */
const HOST_FIELDS = new Set(['target_url', 'final_url_website']);

function isUrl(value: string): boolean {
  return /^https?:\/\/\S+$/i.test(value);
}

function label(field: string): string {
  return field
    .replace(/^ds_usa_/, 'design system .usa- ')
    .replace(/^ds_/, 'design system ')
    .replace(/_/g, ' ')
    .replace(/\bdap\b/gi, 'DAP')
    .replace(/\burl\b/gi, 'URL')
    .replace(/\bog\b/, 'Open Graph')
    .replace(/\bcms\b/, 'CMS')
    .replace(/robots txt/, 'robots.txt')
    .replace(/sitemap xml/, 'sitemap.xml')
    .replace(/404 test/, '404 handling')
    .replace(/MIMEType/, 'MIME type')
    .replace(/^./, (c) => c.toUpperCase());
}

function renderValue(field: string, value: unknown): TemplateResult | string {
  if (value === null || value === undefined) return html`<span class="muted">not reported</span>`;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) {
    if (!value.length) return html`<span class="muted">none</span>`;
    return html`<ul class="chips">
      ${value.map((v) => html`<li class="chip">${typeof v === 'string' && isUrl(v) ? html`<a href=${v} rel="noopener noreferrer" target="_blank">${v}</a>` : String(v)}</li>`)}
    </ul>`;
  }
  if (typeof value === 'object') {
    return html`<dl class="nested">
      ${Object.entries(value as Record<string, unknown>).map(([k, v]) => html`<dt>${k}</dt><dd>${renderValue(k, v)}</dd>`)}
    </dl>`;
  }
  const text = String(value);
  if (isUrl(text)) return html`<a href=${text} rel="noopener noreferrer" target="_blank">${text}</a>`;
  if (HOST_FIELDS.has(field) && /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(text)) {
    return html`<a href="https://${text}" rel="noopener noreferrer" target="_blank">${text}</a>`;
  }
  return text;
}

/** One website scan record with every field the API returns, in the API's order. */
@customElement('website-detail')
export class WebsiteDetail extends LitElement {
  static override styles = [
    baseStyles,
    viewHeaderStyles,
    css`
      nav {
        margin-bottom: 0.75rem;
      }
      h1 {
        overflow-wrap: anywhere;
      }
      .history table {
        table-layout: fixed;
        width: 100%;
      }
      .history th[scope='row'] {
        width: 30%;
        overflow-wrap: anywhere;
      }
      .history td {
        overflow-wrap: anywhere;
      }
      /* Long host names in chips (third-party services, class lists) wrap inside narrow cells instead of overflowing. */
      .chip {
        white-space: normal;
        overflow-wrap: anywhere;
        max-width: 100%;
      }
      .summary {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        align-items: center;
        margin: 0 0 0.75rem;
      }
      .chip.ok {
        background: var(--ok-bg);
        border-color: var(--ok);
      }
      .chip.bad {
        background: var(--danger-bg);
        border-color: var(--danger);
      }
      dl.fields {
        display: grid;
        grid-template-columns: minmax(12rem, 18rem) minmax(0, 1fr);
        margin: 0;
      }
      dl.fields > dt,
      dl.fields > dd {
        padding: 0.45rem 0.6rem;
        border-bottom: 1px solid var(--line);
        margin: 0;
      }
      dl.fields > dt {
        font-weight: 600;
      }
      dl.fields > dt code {
        display: block;
        font-weight: 400;
        color: var(--muted);
      }
      dl.fields > dd {
        overflow-wrap: anywhere;
      }
      ul.chips {
        display: flex;
        flex-wrap: wrap;
        gap: 0.3rem;
        list-style: none;
        margin: 0;
        padding: 0;
      }
      dl.nested {
        display: grid;
        grid-template-columns: auto 1fr;
        gap: 0.15rem 0.75rem;
        margin: 0;
      }
      dl.nested dt {
        color: var(--muted);
      }
      dl.nested dd {
        margin: 0;
      }
      @media (max-width: 600px) {
        dl.fields {
          grid-template-columns: 1fr;
        }
        dl.fields > dt {
          border-bottom: none;
          padding-bottom: 0;
        }
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @property() url = '';

  private readonly record = new Task(this, {
    task: async ([url]: [string]) => {
      const r = await this.db.getJson<WebsiteRecord>(websiteApiUrl(url));
      if (r.status === 404) return null;
      if (r.status !== 200) throw new Error(errorText(r.status, r.body));
      return r.body;
    },
    args: () => [this.url] as [string],
  });

  /** How the record changed across the weekly snapshots shipped with the data (none for an imported file). */
  private readonly history = new Task(this, {
    task: async ([url]: [string]) => this.db.websiteHistory(url.toLowerCase()),
    args: () => [this.url] as [string],
  });

  private weeks(history: SiteHistory | null) {
    if (!history || !history.weeks.length) return nothing;
    return html`<section class="card history" aria-labelledby="history-title">
      <h2 id="history-title">Across the weeks</h2>
      <p class="muted">
        This record is from the snapshot of ${history.date ?? 'the dataset'}. The same site in the earlier weekly snapshots shipped with
        the app (production's API keeps no history; scan dates and the snapshot's counters are not compared):
      </p>
      ${history.weeks.map(
        (week) => html`<h3>${week.date}</h3>
          ${
            week.state === 'absent'
              ? html`<p data-week=${week.date} data-state="absent">Not in that week's snapshot: the site was added since.</p>`
              : week.state === 'same'
                ? html`<p data-week=${week.date} data-state="same">No compared field was different.</p>`
                : html`<table data-week=${week.date} data-state="changed">
                  <thead><tr><th scope="col">Field</th><th scope="col">${week.date}</th><th scope="col">${history.date ?? 'Now'}</th></tr></thead>
                  <tbody>
                    ${week.changes.map(
                      (c) => html`<tr data-field=${c.field}>
                        <th scope="row">${label(c.field)} <code>${c.field}</code></th>
                        <td>${renderValue(c.field, c.then)}</td>
                        <td>${renderValue(c.field, c.now)}</td>
                      </tr>`,
                    )}
                  </tbody>
                </table>`
          }`,
      )}
    </section>`;
  }

  /** The facts an analyst looks for first, above the full record. */
  private summary(r: WebsiteRecord) {
    return html`<p class="summary">
      <span class="chip ${r.scan_status === 'completed' ? 'ok' : 'bad'}">${r.scan_status.replaceAll('_', ' ')}</span>
      ${r.final_url_live === true ? html`<span class="chip ok">live</span>` : r.final_url_live === false ? html`<span class="chip bad">not live</span>` : ''}
      <span>${r.target_url_agency_owner ?? 'Agency not reported'}${r.target_url_bureau_owner ? html` · ${r.target_url_bureau_owner}` : ''}</span>
    </p>`;
  }

  override render() {
    return html`<nav aria-label="Breadcrumb"><a href=${lastListHash()}>← All websites</a></nav>
      <div class="top">
        <h1 id="view-title" tabindex="-1">${this.url}</h1>
        <code class="api muted">GET ${websiteApiUrl(this.url)}</code>
      </div>
      ${this.record.render({
        pending: () => html`<p class="muted" role="status">Loading…</p>`,
        error: (e) => html`<p class="error" role="alert">${e instanceof Error ? e.message : String(e)}</p>`,
        complete: (record) =>
          record
            ? html`${this.summary(record)}${this.weeks(this.history.value ?? null)}<div class="card">
                <dl class="fields" id="website-fields">
                  ${Object.entries(record).map(
                    ([field, value]) => html`<dt>${label(field)}<code>${field}</code></dt>
                      <dd data-field=${field}>${renderValue(field, value)}</dd>`,
                  )}
                </dl>
              </div>`
            : html`<p class="error" role="alert">No website found for ${this.url}.</p>`,
      })}
`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'website-detail': WebsiteDetail;
  }
}
