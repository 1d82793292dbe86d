import { LitElement, html, css, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { dbContext } from '../../api/context.ts';
import type { DbClient, DiffScope, TrendsQuery, WeeksHeld } from '../../api/db-client.ts';
import { baseStyles, pickerStyles, viewHeaderStyles } from '../common/styles.ts';
import { formatCount } from '../common/format.ts';
import { navigate } from '../../state/route.ts';
import { parseWeeksQuery, weeksHashParams, type WeeksQuery } from '../../state/weeks-query.ts';
import { CAME_UP_DEFINITION, LOST_DEFINITION } from '../../../engine/site-scanning/week-diff.ts';
import { groupName, NONE, WEEKS_SOURCE } from './trends-model.ts';
import './weeks-load.ts';
import './weeks-trends.ts';
import '../dataset-panel/diff-result.ts';
import type { TrendsChangeEvent } from './weeks-trends.ts';

/** The comparison's sites as the hash names them: every agency, one agency's, or one bureau's of it (NONE: its sites without one). */
function scopeOf(agency: string, bureau: string): DiffScope {
  if (!agency) return {};
  return bureau ? { agency, bureau: bureau === NONE ? '' : bureau } : { agency };
}

/**
 * Every week of Site Scanning the app holds: trends by agency or bureau over the weeks, and the changes
 * between any two weeks with counts per agency. Its state is in the hash (`#/weeks?…`); when the weeks are not
 * loaded it offers to load them.
 */
@customElement('weeks-view')
export class WeeksView extends LitElement {
  static override styles = [
    baseStyles,
    viewHeaderStyles,
    pickerStyles,
    css`
      section.card {
        margin-bottom: 1rem;
      }
      .span {
        margin: 0 0 0.75rem;
      }
      .partial-note {
        border-left: 4px solid var(--warm);
        padding: 0.25rem 0.6rem;
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @property({ attribute: false }) params = new URLSearchParams();
  private query: WeeksQuery = parseWeeksQuery(new URLSearchParams());

  private readonly weeks = new Task(this, {
    task: async ([db]: [DbClient]): Promise<WeeksHeld | null> => db.weeksHeld(),
    args: () => [this.db] as [DbClient],
  });

  private readonly diff = new Task(this, {
    task: async ([before, after, held, agency, bureau]: [string, string, boolean, string, string]) => {
      if (!held || !before || !after || before === after) return null;
      const answer = await this.db.compareWeeks(before, after, scopeOf(agency, bureau));
      if (!answer.ok) throw new Error(answer.message);
      return { key: `${before}|${after}|${agency}|${bureau}`, diff: answer.diff };
    },
    args: () =>
      [this.query.before, this.query.after, !!this.weeks.value, this.query.compareAgency, this.query.compareBureau] as [
        string,
        string,
        boolean,
        string,
        string,
      ],
  });

  /**
   * The agencies, and the chosen one's bureaus, the comparison may be limited to (their sites in the newest week
   * first): asked for once two weeks are compared.
   */
  private readonly owners = new Task(this, {
    task: async ([comparing, agency]: [boolean, string]) => {
      if (!comparing) return { agencies: [], bureaus: [] };
      const series = async (query: TrendsQuery) => (await this.db.weeklyTrends(query))?.series ?? [];
      // Sites without an agency are no agency's to compare; an agency's sites without a bureau are its '(none)'.
      const agencies = (await series({ by: 'agency' })).filter((s) => s.name !== null).map(groupName);
      return { agencies, bureaus: agency ? (await series({ by: 'bureau', agency })).map(groupName) : [] };
    },
    args: () => [!!this.weeks.value && !!this.query.before && !!this.query.after, this.query.compareAgency] as [boolean, string],
  });

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('params')) this.query = parseWeeksQuery(this.params);
  }

  override updated(): void {
    const shown = this.diff.value?.key ?? '';
    if (this.getAttribute('data-rendered-diff') !== shown) this.setAttribute('data-rendered-diff', shown);
    const weeks = this.weeks.value === undefined ? '' : this.weeks.value === null ? 'not-loaded' : String(this.weeks.value.weeks.length);
    if (this.getAttribute('data-weeks') !== weeks) this.setAttribute('data-weeks', weeks);
  }

  private go(patch: Partial<WeeksQuery>, replace = false): void {
    navigate({ view: 'weeks', query: weeksHashParams({ ...this.query, ...patch }) }, { replace });
  }

  private compare(held: WeeksHeld) {
    const q = this.query;
    const { weeks } = held;
    const dates = weeks.map((w) => w.date);
    const partial = new Map(held.partial.map((p) => [p.date, p.why]));
    const pick = (which: 'before' | 'after', label: string) => html`<div>
      <label for="week-${which}">${label}</label>
      <select id="week-${which}" @change=${(e: Event) => this.go({ [which]: (e.target as HTMLSelectElement).value })}>
        <option value="" .selected=${q[which] === ''}>Choose a week…</option>
        ${weeks.map(
          (w) =>
            html`<option value=${w.date} .selected=${q[which] === w.date}>
              ${w.date} (${formatCount(w.count)} sites${partial.has(w.date) ? ', partial' : ''})
            </option>`,
        )}
      </select>
    </div>`;
    const owners = this.owners.value ?? { agencies: [], bureaus: [] };
    const scope = html`<div>
        <label for="compare-agency">Sites of</label>
        <select id="compare-agency" @change=${(e: Event) => this.go({ compareAgency: (e.target as HTMLSelectElement).value, compareBureau: '' })}>
          <option value="" .selected=${q.compareAgency === ''}>Every agency</option>
          ${owners.agencies.map((a) => html`<option value=${a} .selected=${q.compareAgency === a}>${a}</option>`)}
        </select>
      </div>
      ${
        q.compareAgency
          ? html`<div>
              <label for="compare-bureau">Bureau</label>
              <select id="compare-bureau" @change=${(e: Event) => this.go({ compareBureau: (e.target as HTMLSelectElement).value })}>
                <option value="" .selected=${q.compareBureau === ''}>Every bureau</option>
                ${owners.bureaus.map((b) => html`<option value=${b} .selected=${q.compareBureau === b}>${b}</option>`)}
              </select>
            </div>`
          : nothing
      }`;
    const unknown = [q.before, q.after].filter((d) => d && !dates.includes(d));
    const partialChosen = [q.before, q.after].filter((d) => partial.has(d));
    const whose = q.compareAgency ? `${q.compareAgency}${q.compareBureau ? `, ${q.compareBureau}` : ''}` : 'every agency';
    return html`<section class="card" aria-labelledby="compare-h">
      <h2 id="compare-h">Changes between two weeks</h2>
      <p class="muted">
        Any two of the ${weeks.length} weeks, every agency’s sites or one agency’s (or one bureau’s): the sites added and removed, live
        sites lost and sites that came up, DAP and the design system gained or lost.
      </p>
      <div class="pick">
        ${pick('before', 'Before')} ${pick('after', 'After')} ${q.before && q.after ? scope : nothing}
        ${
          !q.before && !q.after && dates.length > 1
            ? html`<button type="button" @click=${() => this.go({ before: dates[0], after: dates.at(-1)! })}>First and newest week</button>`
            : nothing
        }
      </div>
      ${unknown.length ? html`<p class="error" role="alert">No week of ${unknown.join(' or ')} is held: choose one of the list.</p>` : nothing}
      ${q.before && q.after && q.before === q.after ? html`<p class="muted">Choose two different weeks.</p>` : nothing}
      ${partialChosen.map(
        (d) =>
          html`<p class="partial-note" data-partial=${d}>
            <strong>${d} is a partial week</strong> (${partial.get(d)}): sites “added” or “removed” against it include sites its list did not
            hold yet.
          </p>`,
      )}
      ${this.diff.render({
        pending: () => html`<p class="muted" role="status">Comparing ${q.before} with ${q.after}…</p>`,
        complete: (value) =>
          value
            ? html`<week-diff-result
                .diff=${value.diff}
                .notes=${
                  [
                    ['Before', partial.has(q.before) ? `${q.before} (partial: ${partial.get(q.before)})` : q.before],
                    ['After', partial.has(q.after) ? `${q.after} (partial: ${partial.get(q.after)})` : q.after],
                    ['Source', WEEKS_SOURCE],
                    ['Live sites lost', LOST_DEFINITION],
                    ['Came up', CAME_UP_DEFINITION],
                  ] as [string, string][]
                }
                .names=${{ before: q.before, after: q.after }}
                whose=${whose}
              ></week-diff-result>`
            : nothing,
        error: (e) => html`<p class="error" role="alert">${e instanceof Error ? e.message : String(e)}</p>`,
      })}
    </section>`;
  }

  private loaded(held: WeeksHeld) {
    const q = this.query;
    const { weeks } = held;
    const trendsQuery: TrendsQuery = q.by === 'bureau' && q.agency ? { by: 'bureau', agency: q.agency } : { by: q.by };
    return html`<p class="span" data-span>
        <strong>${weeks.length}</strong> weeks, <strong>${weeks[0]?.date ?? '—'}</strong> to <strong>${weeks.at(-1)?.date ?? '—'}</strong>, held in
        this browser.
      </p>
      <weeks-trends
        .query=${q}
        .trendsQuery=${trendsQuery}
        .partial=${held.partial}
        @trends-change=${(e: TrendsChangeEvent) => this.go(e.patch)}
      ></weeks-trends>
      ${this.compare(held)}`;
  }

  override render() {
    return html`<div class="top">
        <h1 id="view-title" tabindex="-1">Every week</h1>
        <span class="muted">Site Scanning, week by week</span>
      </div>
      ${this.weeks.render({
        pending: () => html`<p class="muted" role="status">Reading the weeks…</p>`,
        error: (e) => html`<p class="error" role="alert">${e instanceof Error ? e.message : String(e)}</p>`,
        complete: (held) => (held ? this.loaded(held) : html`<weeks-load @weeks-loaded=${() => void this.weeks.run()}></weeks-load>`),
      })}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'weeks-view': WeeksView;
  }
}
