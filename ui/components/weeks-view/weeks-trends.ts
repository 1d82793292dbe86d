import { LitElement, html, css, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { dbContext } from '../../api/context.ts';
import type { DbClient, TrendSeries, TrendsQuery, WeeklyTrends, WeeksHeld } from '../../api/db-client.ts';
import { baseStyles, compactTableStyles, bareFieldsetStyles } from '../common/styles.ts';
import { formatCount, formatSigned } from '../common/format.ts';
import { saveBytes } from '../common/save-file.ts';
import { RovingTable } from '../common/roving-table.ts';
import { MAX_GROUPS, MIN_SITES, TREND_METRICS, type GroupOrder, type WeeksQuery } from '../../state/weeks-query.ts';
import {
  chosenSeries,
  figure,
  formatFigure,
  groupName,
  METRICS,
  outcomeStatuses,
  plotted,
  totalSeries,
  trendsCsv,
  WEEKS_SOURCE,
  sortGroups,
  firstAndLast,
  firstCompleteWeek,
  fromWeek,
} from './trends-model.ts';
import './trend-chart.ts';
import type { ChartLine } from './trend-chart.ts';

/**
 * Trends over the weeks by agency (or one agency's bureaus): a measure drawn as lines for the chosen groups and
 * their sum, the numbers as a table with each share's count and denominator, every group ranked by its change
 * from the first week to the newest (picking which are drawn), and every group's every week as CSV.
 */
@customElement('weeks-trends')
export class WeeksTrends extends LitElement {
  static override styles = [
    baseStyles,
    bareFieldsetStyles,
    compactTableStyles,
    css`
      :host {
        margin-bottom: 1rem;
      }
      .controls {
        display: flex;
        flex-wrap: wrap;
        gap: 0.75rem 1.25rem;
        align-items: end;
        margin: 0.6rem 0;
      }
      legend,
      .controls label.head {
        display: block;
        font-weight: 600;
        font-size: 0.9rem;
        margin-bottom: 0.25rem;
        padding: 0;
      }
      .choices {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 0.75rem;
      }
      .choices label {
        white-space: nowrap;
      }
      .definition {
        font-size: 0.9rem;
        margin: 0.25rem 0 0.5rem;
      }
      .wrap {
        max-height: 24rem;
        margin: 0.5rem 0;
      }
      td small {
        display: block;
        color: var(--muted);
        font-size: 0.78rem;
        white-space: nowrap;
      }
      th.line {
        min-width: 6.5rem;
      }
      tbody th[scope='row'] {
        white-space: nowrap;
      }
      td.name {
        min-width: 12rem;
      }
      td.name button {
        all: unset;
        cursor: pointer;
        color: var(--link);
        text-decoration: underline;
      }
      th button.sort {
        all: unset;
        cursor: pointer;
        font-weight: 600;
      }
      th button.sort:focus-visible,
      td.name button:focus-visible {
        outline: 3px solid var(--focus);
      }
      tr.drawn td {
        background: var(--accent-soft);
      }
      .actions {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        align-items: center;
        margin: 0.5rem 0;
      }
      h3 {
        margin-top: 0.75rem;
      }
      .partial-note {
        border-left: 4px solid var(--warm);
        padding: 0.25rem 0.6rem;
        margin: 0.25rem 0 0.5rem;
      }
      tr.partial th[scope='row']::after {
        content: ' (partial)';
        color: var(--warm);
        font-weight: 600;
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @property({ attribute: false }) query!: WeeksQuery;
  @property({ attribute: false }) trendsQuery!: TrendsQuery;
  /** The weeks whose list is known to be incomplete, and why. */
  @property({ attribute: false }) partial: WeeksHeld['partial'] = [];
  private readonly roving = new RovingTable(this);

  private readonly trends = new Task(this, {
    task: async ([by, agency]: [string, string]) => {
      const answer = await this.db.weeklyTrends(by === 'bureau' && agency ? { by: 'bureau', agency } : { by: by as 'agency' | 'bureau' });
      return answer ? { key: `${by}|${agency}`, trends: answer } : null;
    },
    args: () => [this.trendsQuery.by, this.trendsQuery.agency ?? ''] as [string, string],
  });

  /** The agencies to choose one's bureaus from: only asked for when grouping by bureau. */
  private readonly agencies = new Task(this, {
    task: async ([by]: [string]) => (by === 'bureau' ? ((await this.db.weeklyTrends({ by: 'agency' }))?.series ?? []).map(groupName) : []),
    args: () => [this.trendsQuery.by] as [string],
  });

  override updated(): void {
    this.roving.sync(this.renderRoot.querySelector<HTMLTableElement>('#trend-groups'));
    const shown = this.trends.value?.key ?? '';
    if (this.getAttribute('data-rendered-trends') !== shown) this.setAttribute('data-rendered-trends', shown);
  }

  private partialDates(): Set<string> {
    return new Set(this.partial.map((p) => p.date));
  }

  /** How a week is written where it heads a column or a row: a partial week says so. */
  private weekName(date: string): string {
    return this.partialDates().has(date) ? `${date} (partial)` : date;
  }

  private change(patch: Partial<WeeksQuery>): void {
    this.dispatchEvent(new TrendsChangeEvent(patch));
  }

  private groupLabel(): string {
    return this.query.by === 'bureau' ? 'bureau' : 'agency';
  }

  private totalName(): string {
    const q = this.query;
    return q.by === 'bureau' && q.agency ? `${q.agency} (all bureaus)` : 'All sites';
  }

  private toggle(trends: WeeklyTrends, name: string): void {
    const drawn = chosenSeries(trends, this.query.groups).map(groupName);
    const groups = drawn.includes(name) ? drawn.filter((g) => g !== name) : [...drawn, name].slice(-MAX_GROUPS);
    // An empty choice would fall back to the largest groups: keep the one line the user left.
    this.change({ groups: groups.length ? groups : drawn });
  }

  private exportCsv(trends: WeeklyTrends): void {
    const q = this.query;
    const csv = trendsCsv(trends, totalSeries(trends, this.totalName()), [
      ['Trend', q.by === 'bureau' ? `By bureau${q.agency ? ` of ${q.agency}` : ''}` : 'By agency'],
      ['Weeks', `${trends.dates[0]} to ${trends.dates.at(-1)} (${trends.dates.length})`],
      ...this.partial.filter((p) => trends.dates.includes(p.date)).map((p): [string, string] => ['Partial week', `${p.date}: ${p.why}`]),
      ['Source', WEEKS_SOURCE],
      ['Denominator', 'Every share is of Sites: every site in that week’s list, whether its scan completed or not'],
      ['Exported', new Date().toISOString()],
    ]);
    const name = q.by === 'bureau' && q.agency ? `bureaus-${q.agency.replace(/[^A-Za-z0-9]+/g, '-')}` : q.by;
    saveBytes(new TextEncoder().encode(csv), `site-scanning-trends-${name}-${trends.dates[0]}-to-${trends.dates.at(-1)}.csv`, 'text/csv;charset=utf-8');
  }

  private controls(statuses: string[]) {
    const q = this.query;
    const agencies = this.agencies.value ?? [];
    return html`<div class="controls">
      <fieldset>
        <legend>Group by</legend>
        <div class="choices">
          ${(['agency', 'bureau'] as const).map(
            (by) =>
              html`<label
                ><input type="radio" name="by" value=${by} .checked=${q.by === by} @change=${() => this.change({ by, agency: '', groups: [] })} />
                ${by === 'agency' ? 'Agency' : 'Bureau'}</label
              >`,
          )}
        </div>
      </fieldset>
      ${
        q.by === 'bureau'
          ? html`<div>
              <label class="head" for="trend-agency">Of the agency</label>
              <select id="trend-agency" @change=${(e: Event) => this.change({ agency: (e.target as HTMLSelectElement).value, groups: [] })}>
                <option value="" .selected=${q.agency === ''}>Every agency</option>
                ${agencies.map((a) => html`<option value=${a} .selected=${q.agency === a}>${a}</option>`)}
              </select>
            </div>`
          : nothing
      }
      <fieldset>
        <legend>Measure</legend>
        <div class="choices">
          ${TREND_METRICS.map(
            (m) =>
              html`<label
                ><input type="radio" name="metric" value=${m} .checked=${q.metric === m} @change=${() => this.change({ metric: m })} />
                ${METRICS[m].label}</label
              >`,
          )}
        </div>
      </fieldset>
      ${
        q.metric === 'outcome'
          ? html`<div>
              <label class="head" for="trend-status">Scan status</label>
              <select id="trend-status" @change=${(e: Event) => this.change({ status: (e.target as HTMLSelectElement).value })}>
                ${statuses.map((s) => html`<option value=${s} .selected=${q.status === s}>${s.replaceAll('_', ' ')}</option>`)}
              </select>
            </div>`
          : nothing
      }
    </div>`;
  }

  /** The numbers drawn: a row per week, a column per line; a share shows its count and denominator. */
  private numbers(trends: WeeklyTrends, lines: TrendSeries[]) {
    const q = this.query;
    return html`<h3 id="numbers-h">The numbers</h3>
      <div class="wrap" tabindex="0" role="region" aria-labelledby="numbers-h">
        <table id="trend-numbers">
          <caption class="visually-hidden">
            ${METRICS[q.metric].label} per week${q.metric === 'sites' ? '' : ', with the count out of the sites'}
          </caption>
          <thead>
            <tr>
              <th scope="col">Week</th>
              ${lines.map((s) => html`<th scope="col" class="num line">${groupName(s)}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${trends.dates.map(
              (date, i) => html`<tr data-week=${date} class=${this.partialDates().has(date) ? 'partial' : ''}>
                <th scope="row">${date}</th>
                ${lines.map((s) => {
                  const f = figure(s.points[i], q.metric, q.status);
                  return html`<td class="num" data-line=${groupName(s)}>
                    ${formatFigure(f)}${f.whole === null ? nothing : html`<small>${f.whole === 0 ? 'no sites' : `${formatCount(f.part)} of ${formatCount(f.whole)}`}</small>`}
                  </td>`;
                })}
              </tr>`,
            )}
          </tbody>
        </table>
      </div>`;
  }

  /** Every group, ranked by sites in the newest week, with its first and newest figure; a name draws or hides its line. */
  private sortHeader(key: GroupOrder, text: string) {
    const q = this.query;
    const active = q.order === key;
    return html`<th scope="col" class=${key === 'name' ? '' : 'num'} aria-sort=${active ? (q.dir === 'asc' ? 'ascending' : 'descending') : nothing}>
      <button
        type="button"
        class="sort"
        data-sort=${key}
        @click=${() => this.change({ order: key, dir: active ? (q.dir === 'asc' ? 'desc' : 'asc') : key === 'name' ? 'asc' : 'desc' })}
      >
        ${text}<span aria-hidden="true">${active ? (q.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>`;
  }

  private groups(trends: WeeklyTrends, drawn: Set<string>) {
    const q = this.query;
    const last = trends.dates.length - 1;
    const label = this.groupLabel();
    const listed = sortGroups(
      trends.series.filter((s) => (s.points[last]?.sites ?? 0) >= q.min),
      q.order,
      q.dir,
      q.metric,
      q.status,
    );
    return html`<h3 id="groups-h">Every ${label}</h3>
      <p class="muted">
        A name draws its line or takes it away (at most ${MAX_GROUPS}); a heading sorts. One tab stop: the arrow keys move between
        the headings and the names.
      </p>
      <p>
        <label for="trend-min">Show</label>
        <select id="trend-min" @change=${(e: Event) => this.change({ min: Number((e.target as HTMLSelectElement).value) })}>
          ${MIN_SITES.map(
            (n) =>
              html`<option value=${n} .selected=${q.min === n}>${n ? `${label === 'agency' ? 'agencies' : 'bureaus'} with at least ${n} sites` : `every ${label}`}</option>`,
          )}
        </select>
        <span class="muted">(sites in the newest week; ${formatCount(listed.length)} of ${formatCount(trends.series.length)} shown)</span>
      </p>
      <div class="wrap" role="region" aria-labelledby="groups-h" @keydown=${this.roving.keydown} @focusin=${this.roving.focusin}>
        <table id="trend-groups">
          <caption class="visually-hidden">
            Every ${label}: sites in the newest week and ${METRICS[q.metric].label} in the first and the newest week
          </caption>
          <thead>
            <tr>
              ${this.sortHeader('name', label === 'agency' ? 'Agency' : 'Bureau')} ${this.sortHeader('sites', `Sites ${trends.dates[last]}`)}
              ${this.sortHeader('first', `${METRICS[q.metric].label} ${this.weekName(trends.dates[0])}`)}
              ${this.sortHeader('last', `${METRICS[q.metric].label} ${trends.dates[last]}`)}
              ${this.sortHeader('change', q.metric === 'sites' ? 'Change' : 'Change (points)')}
            </tr>
          </thead>
          <tbody>
            ${listed.map((s) => {
              const name = groupName(s);
              const on = drawn.has(name);
              const { change } = firstAndLast(s, q.metric, q.status);
              return html`<tr data-group=${name} class=${on ? 'drawn' : ''}>
                <td class="name">
                  <button type="button" aria-pressed=${on ? 'true' : 'false'} @click=${() => this.toggle(trends, name)}>${name}</button>
                </td>
                <td class="num">${formatCount(s.points[last]?.sites)}</td>
                <td class="num">${formatFigure(figure(s.points[0], q.metric, q.status))}</td>
                <td class="num">${formatFigure(figure(s.points[last], q.metric, q.status))}</td>
                <td class="num" data-col="change">${formatSigned(change, q.metric === 'sites' ? 0 : 1)}</td>
              </tr>`;
            })}
          </tbody>
        </table>
      </div>`;
  }

  /** The start of the trends: the first week held, or the first complete one; a partial start is said beside the chart. */
  private start(all: WeeklyTrends, shown: WeeklyTrends) {
    const partial = this.partialDates();
    const complete = firstCompleteWeek(all.dates, partial);
    const starting = this.partial.find((p) => p.date === shown.dates[0]);
    return html`${
      starting
        ? html`<p class="partial-note" id="trend-partial" data-partial=${starting.date}>
            <strong>${starting.date} is a partial week</strong> (${starting.why}): the trends start with it, so a change “since ${starting.date}”
            counts sites the list did not hold yet.
          </p>`
        : nothing
    }
    ${
      complete
        ? html`<p>
            <label
              ><input
                type="checkbox"
                id="trend-from-complete"
                .checked=${shown.dates[0] === complete}
                @change=${(e: Event) => this.change({ from: (e.target as HTMLInputElement).checked ? complete : '' })}
              />
              Start at ${complete}, the first complete week</label
            >
          </p>`
        : nothing
    }`;
  }

  private draw(all: WeeklyTrends) {
    const q = this.query;
    const trends = fromWeek(all, q.from);
    const chosen = chosenSeries(trends, q.groups);
    const total = totalSeries(trends, this.totalName());
    const lines = [total, ...chosen];
    const chart: ChartLine[] = lines.map((s, i) => ({
      name: groupName(s),
      total: i === 0,
      values: s.points.map((p) => plotted(figure(p, q.metric, q.status))),
    }));
    const spec = METRICS[q.metric];
    const measure = q.metric === 'outcome' ? `% ${q.status.replaceAll('_', ' ')}` : spec.label;
    return html`${this.controls(outcomeStatuses(trends))}
      <p class="definition" id="trend-definition"><strong>${measure}:</strong> ${spec.definition}</p>
      ${this.start(all, trends)}
      <trend-chart
        .dates=${trends.dates}
        .lines=${chart}
        .partial=${this.partial.map((p) => p.date)}
        ?percent=${q.metric !== 'sites'}
        label=${`${measure} per week`}
      ></trend-chart>
      <div class="actions">
        <button type="button" @click=${() => this.exportCsv(trends)}>Export every ${this.groupLabel()}'s weeks as CSV</button>
        <span class="muted">${formatCount(trends.series.length)} ${this.groupLabel() === 'agency' ? 'agencies' : 'bureaus'} × ${trends.dates.length} weeks, counts only</span>
      </div>
      ${this.numbers(trends, lines)} ${this.groups(trends, new Set(chosen.map(groupName)))}`;
  }

  override render() {
    const q = this.query;
    return html`<section class="card" aria-labelledby="trends-h">
      <h2 id="trends-h">Trends by ${q.by === 'bureau' ? `bureau${q.agency ? ` of ${q.agency}` : ''}` : 'agency'}</h2>
      ${this.trends.render({
        pending: () => (this.trends.value ? this.draw(this.trends.value.trends) : html`<p class="muted" role="status">Adding up the weeks…</p>`),
        complete: (v) => (v ? this.draw(v.trends) : html`<p class="muted">The weeks are not loaded.</p>`),
        error: (e) => html`<p class="error" role="alert">${e instanceof Error ? e.message : String(e)}</p>`,
      })}
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'weeks-trends': WeeksTrends;
  }
  interface HTMLElementEventMap {
    'trends-change': TrendsChangeEvent;
  }
}

/** The user changed the trend's grouping, measure or lines: the view puts it in the hash. */
export class TrendsChangeEvent extends Event {
  constructor(readonly patch: Partial<WeeksQuery>) {
    super('trends-change', { bubbles: true, composed: true });
  }
}
