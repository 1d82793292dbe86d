import { LitElement, html, css, nothing, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { dbContext } from '../../api/context.ts';
import type { DbClient, SiteTimeline, TimelineRow, WeeksHeld } from '../../api/db-client.ts';
import { errorText, type WebsiteRecord } from '../../api/api-types.ts';
import { baseStyles, viewHeaderStyles } from '../common/styles.ts';
import { lastListHash, websiteApiUrl } from '../../state/websites-query.ts';
import { sourceDate } from '../../../dataset/artifact/format.ts';
import { formatRoute } from '../../state/route.ts';
import '../weeks-view/weeks-load.ts';
import { saveBytes } from '../common/save-file.ts';
import { csvLine } from '../../../engine/ceilingrates/export.ts';
import { WEEKS_SOURCE } from '../weeks-view/trends-model.ts';
import { siteFacts, type SiteFacts } from '../../../engine/site-scanning/measures.ts';
import '../common/source-badge.ts';
import { ReloadOnReady, readyOf } from '../common/reload-on-ready.ts';

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

/** A value in a timeline cell: short words, no links (the full record is below). */
function cellValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.length ? value.map(String).join(', ') : 'none';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The facts a site's weeks show first, each with the field it is read from (a change of that field marks it). */
const FACTS: readonly { key: keyof SiteFacts; name: string; field: string }[] = [
  { key: 'status', name: 'Scan', field: 'scan_status' },
  { key: 'live', name: 'Live', field: 'final_url_live' },
  { key: 'dap', name: 'DAP', field: 'dap_detected_final_url' },
  { key: 'uswds', name: 'USWDS', field: 'ds_usa_classes' },
  { key: 'banner', name: 'Banner', field: 'ds_banner_heres_how' },
];
const FACT_FIELDS = new Set(FACTS.map((f) => f.field));

const yesNo = (v: boolean | null): string => (v === null ? '—' : v ? 'Yes' : 'No');

/** A fact as a week's cell says it: the scan's status in words, the USWDS classes counted. */
function factText(key: keyof SiteFacts, values: Record<string, unknown>): string {
  const facts = siteFacts(values as Parameters<typeof siteFacts>[0]);
  if (key === 'status') return String(facts.status ?? '—').replaceAll('_', ' ');
  if (key === 'uswds' && facts.uswds) return `Yes (${String(values.ds_usa_classes)})`;
  return yesNo(facts[key] as boolean | null);
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
      /* Long host names in chips (third-party services, class lists) wrap inside narrow cells instead of overflowing. */
      .chip {
        white-space: normal;
        overflow-wrap: anywhere;
        max-width: 100%;
      }
      .strip {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(7.5rem, 1fr));
        gap: 0.5rem;
        margin: 0 0 0.5rem;
      }
      .strip > div {
        border: 1px solid var(--line);
        border-radius: 8px;
        padding: 0.4rem 0.6rem;
        background: var(--surface);
      }
      .strip dt {
        font-size: 0.75rem;
        color: var(--muted);
        text-transform: uppercase;
        letter-spacing: 0.03em;
      }
      .strip dd {
        margin: 0.1rem 0 0;
        font-weight: 650;
      }
      .strip .ok {
        border-color: var(--ok);
        background: var(--ok-bg);
      }
      .strip .bad {
        border-color: var(--danger);
        background: var(--danger-bg);
      }
      .owner {
        margin: 0 0 0.75rem;
      }
      section.card {
        margin-bottom: 0.75rem;
      }
      .timeline table.facts {
        table-layout: fixed;
        width: 100%;
        font-size: 0.9rem;
      }
      .timeline table.facts th,
      .timeline table.facts td {
        padding: 0.3rem 0.35rem;
        overflow-wrap: anywhere;
        vertical-align: top;
      }
      .timeline table.facts th[scope='row'] {
        width: 6.2rem;
        font-variant-numeric: tabular-nums;
      }
      /* The week and the facts narrow, the other fields that changed the room left. */
      .timeline table.facts th.week {
        width: 7rem;
      }
      .timeline table.facts th.fact {
        width: 9%;
      }
      .timeline table.facts th.fact.status {
        width: 13%;
      }
      .timeline td.changed {
        background: var(--warm-bg, #fff4e5);
        font-weight: 650;
      }
      .timeline td.changed::before,
      .timeline td.changed .v::before {
        content: '● ';
        color: var(--warm);
      }
      .timeline table.facts td.changed::before {
        content: none;
      }
      .timeline table.facts .name {
        display: none;
      }
      .timeline tr.absent td {
        color: var(--muted);
        font-style: italic;
      }
      .timeline details summary {
        cursor: pointer;
        color: var(--link);
      }
      .timeline details ul {
        margin: 0.25rem 0 0;
        padding-left: 1rem;
        font-size: 0.85rem;
      }
      /* Positioned, so the cells' visually hidden words (absolutely placed) scroll with it instead of widening the page. */
      .timeline .all {
        position: relative;
        overflow: auto;
        max-height: 30rem;
        margin-top: 0.5rem;
      }
      .timeline .all table {
        font-size: 0.85rem;
        font-variant-numeric: tabular-nums;
      }
      .timeline .all th,
      .timeline .all td {
        padding: 0.3rem 0.45rem;
        white-space: nowrap;
      }
      .timeline .all td.value {
        max-width: 16rem;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      /* On a phone each week is a block: its day on a line, its five facts side by side, each named, the rest below. */
      @media (max-width: 600px) {
        .timeline table.facts,
        .timeline table.facts tbody {
          display: block;
        }
        .timeline table.facts thead {
          position: absolute;
          width: 1px;
          height: 1px;
          overflow: hidden;
          clip-path: inset(50%);
        }
        .timeline table.facts tr {
          display: grid;
          grid-template-columns: minmax(0, 1.6fr) repeat(4, minmax(0, 1fr));
          border-bottom: 1px solid var(--line);
          padding: 0.25rem 0;
        }
        .timeline table.facts th[scope='row'],
        .timeline table.facts td[data-col='other'],
        .timeline table.facts tr.absent td {
          grid-column: 1 / -1;
          width: auto;
        }
        .timeline table.facts td[data-fact] {
          overflow-wrap: break-word;
        }
        .timeline table.facts td.none {
          display: none;
        }
        /* The mark of a change goes by the fact's name: the value keeps the whole width. */
        .timeline table.facts td.changed .v::before {
          content: none;
        }
        .timeline table.facts td.changed .name::after {
          content: ' ●';
          color: var(--warm);
        }
        .timeline table.facts .name {
          display: block;
          font-size: 0.7rem;
          font-weight: 400;
          color: var(--muted);
        }
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

  /** The site's weeks, and which weeks are partial (null: the weeks are not loaded, and the page offers to load them). */
  private readonly timeline = new Task(this, {
    task: async ([url]: [string]): Promise<{ timeline: SiteTimeline; held: WeeksHeld } | null> => {
      const [timeline, held] = await Promise.all([this.db.siteTimeline(url.toLowerCase()), this.db.weeksHeld()]);
      return timeline && held ? { timeline, held } : null;
    },
    args: () => [this.url] as [string],
  });

  /** Every field, week by week, shown on demand under the facts. */
  @state() private everyField = false;

  /** The active dataset's week, for the summary strip: which week these facts are from. */
  private readonly week = new Task(this, {
    task: async ([db]: [DbClient]) => {
      const status = (await db.status()).datasets.find((d) => d.name === 'websites');
      return sourceDate(status?.source ?? null) ?? (status?.source?.kind === 'synthetic' ? 'generated data' : (status?.fileDate?.slice(0, 10) ?? null));
    },
    args: () => [this.db] as [DbClient],
  });

  // Opened before the websites finished loading: the strip's week is read again once they have.
  private readonly reloadOnReady = new ReloadOnReady(
    this,
    () => this.db,
    () => void this.week.run(),
    { when: readyOf('websites') },
  );

  /** The site's weeks as CSV, oldest first: every core field and which of them changed, under the site and the source. */
  private exportTimeline(timeline: SiteTimeline, fields: string[]): void {
    const lines = [
      csvLine(['Site', timeline.targetUrl]),
      csvLine(['Source', WEEKS_SOURCE]),
      csvLine(['Changed', 'the fields whose value differs from the previous week the site was listed']),
      csvLine(['Week', 'In the list', ...fields, 'Changed']),
      ...timeline.weeks.map((w) =>
        csvLine([
          w.date,
          w.state === 'present' ? 'yes' : 'no',
          ...fields.map((f) => (w.state === 'present' && w.values[f] !== null && w.values[f] !== undefined ? cellValue(w.values[f]) : '')),
          w.changed.join(' '),
        ]),
      ),
    ];
    const name = timeline.targetUrl.replace(/[^A-Za-z0-9.-]+/g, '_');
    saveBytes(new TextEncoder().encode(lines.join('\r\n') + '\r\n'), `site-scanning-weeks-${name}.csv`, 'text/csv;charset=utf-8');
  }

  /** A week's fields that changed beside the facts, on demand: each with its value that week. */
  private otherChanges(week: TimelineRow) {
    const others = week.changed.filter((f) => !FACT_FIELDS.has(f));
    if (others.length === 0) return html`<span class="muted">—</span>`;
    return html`<details data-others=${others.length}>
      <summary>${others.length} changed</summary>
      <ul>
        ${others.map((f) => html`<li data-field=${f}><strong>${label(f)}</strong>: ${cellValue(week.values[f])}</li>`)}
      </ul>
    </details>`;
  }

  /** Every core field week by week (the table before the facts came first), in its own scrolling region. */
  private allFields(weeks: TimelineRow[], fields: string[], timeline: SiteTimeline) {
    return html`<div class="all" tabindex="0" role="region" aria-label="Every field, week by week">
      <table id="site-timeline-all">
        <caption class="visually-hidden">${timeline.targetUrl}: every core field per week; changed values are marked</caption>
        <thead>
          <tr>
            <th scope="col">Week</th>
            ${fields.map((f) => html`<th scope="col" title=${f}>${label(f)}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${weeks.map((w) =>
            w.state === 'absent'
              ? html`<tr class="absent" data-week=${w.date}>
                  <th scope="row">${w.date}</th>
                  <td colspan=${fields.length}>Not in that week's list</td>
                </tr>`
              : html`<tr data-week=${w.date}>
                  <th scope="row">${w.date}</th>
                  ${fields.map((f) => {
                    const changed = w.changed.includes(f);
                    const text = cellValue(w.values[f]);
                    return html`<td class="value ${changed ? 'changed' : ''}" data-field=${f} data-changed=${changed ? 'yes' : 'no'} title=${text}>
                      ${text}${changed ? html`<span class="visually-hidden"> (changed)</span>` : nothing}
                    </td>`;
                  })}
                </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  private timelineSection({ timeline, held }: { timeline: SiteTimeline; held: WeeksHeld }, agency: string | null) {
    const weeks = [...timeline.weeks].reverse();
    const partial = new Set(held.partial.map((p) => p.date));
    const fields: string[] = [];
    for (const w of timeline.weeks) for (const f of Object.keys(w.values)) if (!fields.includes(f)) fields.push(f);
    const changes = timeline.weeks.reduce((n, w) => n + w.changed.length, 0);
    return html`<section class="card timeline" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Week by week</h2>
      <p class="muted">
        The scan and what it found in each of the ${timeline.weeks.length} weeks, newest first; a marked cell (●) differs from the week
        before (${changes} ${changes === 1 ? 'change' : 'changes'} in all, every field). The other fields that changed open under “Other”.
        <a href=${formatRoute({ view: 'weeks', query: new URLSearchParams(agency ? { g: agency } : {}) })}
          >${agency ? `${agency}'s trends over the weeks` : 'Trends and changes of every site'}</a
        >
      </p>
      <table id="site-timeline" class="facts">
        <caption class="visually-hidden">${timeline.targetUrl}: its scan, live, DAP, USWDS and banner per week; changed values are marked</caption>
        <thead>
          <tr>
            <th scope="col" class="week">Week</th>
            ${FACTS.map((f) => html`<th scope="col" class="fact ${f.key}">${f.name}</th>`)}
            <th scope="col">Other</th>
          </tr>
        </thead>
        <tbody>
          ${weeks.map((w) =>
            w.state === 'absent'
              ? html`<tr class="absent" data-week=${w.date} data-state="absent">
                  <th scope="row">${w.date}</th>
                  <td colspan=${FACTS.length + 1}>Not in that week's list${partial.has(w.date) ? ' (a partial week)' : ''}</td>
                </tr>`
              : html`<tr data-week=${w.date} data-state="present">
                  <th scope="row">${w.date}${partial.has(w.date) ? html`<br /><small class="muted">partial week</small>` : nothing}</th>
                  ${FACTS.map((f) => {
                    const changed = w.changed.includes(f.field);
                    return html`<td class=${changed ? 'changed' : ''} data-fact=${f.key} data-changed=${changed ? 'yes' : 'no'}>
                      <span class="name" aria-hidden="true">${f.name}</span><span class="v">${factText(f.key, w.values)}</span>${
                        changed ? html`<span class="visually-hidden"> (changed)</span>` : nothing
                      }
                    </td>`;
                  })}
                  <td data-col="other" class=${w.changed.some((f) => !FACT_FIELDS.has(f)) ? '' : 'none'}>${this.otherChanges(w)}</td>
                </tr>`,
          )}
        </tbody>
      </table>
      <p>
        <button type="button" aria-expanded=${this.everyField ? 'true' : 'false'} @click=${() => (this.everyField = !this.everyField)}>
          ${this.everyField ? 'Hide' : 'Show'} every field, week by week
        </button>
        <button type="button" @click=${() => this.exportTimeline(timeline, fields)}>Export these weeks as CSV</button>
      </p>
      ${this.everyField ? this.allFields(weeks, fields, timeline) : nothing}
    </section>`;
  }

  /** The facts an analyst looks for first, at the top: the week they are from, then live, DAP, USWDS, the banner. */
  private summary(r: WebsiteRecord) {
    const yes = (v: boolean | null, on: string) =>
      v === true ? { text: on, kind: 'ok' } : v === false ? { text: 'No', kind: 'bad' } : { text: 'not reported', kind: '' };
    const f = siteFacts(r);
    const facts: [string, string, { text: string; kind: string }][] = [
      ['status', 'Scan', { text: f.status.replaceAll('_', ' '), kind: f.status === 'completed' ? 'ok' : 'bad' }],
      ['live', 'Live', yes(f.live, 'Yes')],
      ['dap', 'DAP', yes(f.dap, 'Yes')],
      ['uswds', 'USWDS', yes(f.uswds, `Yes (${String(r.ds_usa_classes)} classes)`)],
      ['banner', 'Banner', yes(f.banner, 'Yes')],
    ];
    const date = this.week.value;
    return html`<dl class="strip" id="site-summary" aria-label="Summary${date ? ` (the week of ${date})` : ''}">
        ${facts.map(([key, name, v]) => html`<div class=${v.kind} data-summary=${key}><dt>${name}</dt><dd>${v.text}</dd></div>`)}
        <div data-summary="week"><dt>Week</dt><dd>${date ?? '—'}</dd></div>
      </dl>
      <p class="owner">${r.target_url_agency_owner ?? 'Agency not reported'}${r.target_url_bureau_owner ? html` · ${r.target_url_bureau_owner}` : ''}</p>`;
  }

  override render() {
    return html`<nav aria-label="Breadcrumb"><a href=${lastListHash()}>← All websites</a></nav>
      <div class="top">
        <h1 id="view-title" tabindex="-1">${this.url}</h1>
        <source-badge of="websites"></source-badge>
        <code class="api muted">GET ${websiteApiUrl(this.url)}</code>
      </div>
      ${this.record.render({
        pending: () => html`<p class="muted" role="status">Loading…</p>`,
        error: (e) => html`<p class="error" role="alert">${e instanceof Error ? e.message : String(e)}</p>`,
        complete: (record) =>
          record
            ? html`${this.summary(record)}
                ${this.timeline.render({
                  pending: () => html`<p class="muted" role="status">Reading the weeks…</p>`,
                  error: (e) => html`<p class="error" role="alert">${e instanceof Error ? e.message : String(e)}</p>`,
                  complete: (weeks) =>
                    weeks
                      ? this.timelineSection(weeks, record.target_url_agency_owner)
                      : html`<weeks-load quiet heading="Week by week: the weeks are not loaded" @weeks-loaded=${() => void this.timeline.run()}></weeks-load>`,
                })}
                <div class="card">
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
