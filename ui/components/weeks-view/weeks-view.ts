import { LitElement, html, css, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { dbContext } from '../../api/context.ts';
import type { DbClient, SnapshotWeek, TrendsQuery } from '../../api/db-client.ts';
import { baseStyles, pickerStyles, viewHeaderStyles } from '../common/styles.ts';
import { formatCount } from '../common/format.ts';
import { navigate } from '../../state/route.ts';
import { parseWeeksQuery, weeksHashParams, type WeeksQuery } from '../../state/weeks-query.ts';
import { LOST_DEFINITION } from '../../../engine/site-scanning/snapshot-diff.ts';
import { WEEKS_SOURCE } from './trends-model.ts';
import './weeks-load.ts';
import './weeks-trends.ts';
import '../dataset-panel/diff-result.ts';
import type { TrendsChangeEvent } from './weeks-trends.ts';

/**
 * Every weekly Site Scanning snapshot the app holds: trends by agency or bureau over the weeks, and the changes
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
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @property({ attribute: false }) params = new URLSearchParams();
  private query: WeeksQuery = parseWeeksQuery(new URLSearchParams());

  private readonly weeks = new Task(this, {
    task: async ([db]: [DbClient]): Promise<SnapshotWeek[] | null> => db.snapshotWeeks(),
    args: () => [this.db] as [DbClient],
  });

  private readonly diff = new Task(this, {
    task: async ([before, after, held]: [string, string, boolean]) => {
      if (!held || !before || !after || before === after) return null;
      const answer = await this.db.compareWeeks(before, after);
      if (!answer.ok) throw new Error(answer.message);
      return { key: `${before}|${after}`, diff: answer.diff };
    },
    args: () => [this.query.before, this.query.after, !!this.weeks.value] as [string, string, boolean],
  });

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('params')) this.query = parseWeeksQuery(this.params);
  }

  override updated(): void {
    const shown = this.diff.value?.key ?? '';
    if (this.getAttribute('data-rendered-diff') !== shown) this.setAttribute('data-rendered-diff', shown);
    const weeks = this.weeks.value === undefined ? '' : this.weeks.value === null ? 'not-loaded' : String(this.weeks.value.length);
    if (this.getAttribute('data-weeks') !== weeks) this.setAttribute('data-weeks', weeks);
  }

  private go(patch: Partial<WeeksQuery>, replace = false): void {
    navigate({ view: 'weeks', query: weeksHashParams({ ...this.query, ...patch }) }, { replace });
  }

  private compare(weeks: SnapshotWeek[]) {
    const q = this.query;
    const dates = weeks.map((w) => w.date);
    const pick = (which: 'before' | 'after', label: string) => html`<div>
      <label for="week-${which}">${label}</label>
      <select id="week-${which}" @change=${(e: Event) => this.go({ [which]: (e.target as HTMLSelectElement).value })}>
        <option value="" .selected=${q[which] === ''}>Choose a week…</option>
        ${weeks.map((w) => html`<option value=${w.date} .selected=${q[which] === w.date}>${w.date} (${formatCount(w.count)} sites)</option>`)}
      </select>
    </div>`;
    const unknown = [q.before, q.after].filter((d) => d && !dates.includes(d));
    return html`<section class="card" aria-labelledby="compare-h">
      <h2 id="compare-h">Changes between two weeks</h2>
      <p class="muted">Any two of the ${weeks.length} weeks: the sites added and removed, live sites lost, DAP and the design system gained or lost, per agency.</p>
      <div class="pick">
        ${pick('before', 'Before')} ${pick('after', 'After')}
        ${
          !q.before && !q.after && dates.length > 1
            ? html`<button type="button" @click=${() => this.go({ before: dates[0], after: dates.at(-1)! })}>First and newest week</button>`
            : nothing
        }
      </div>
      ${unknown.length ? html`<p class="error" role="alert">No week of ${unknown.join(' or ')} is held: choose one of the list.</p>` : nothing}
      ${q.before && q.after && q.before === q.after ? html`<p class="muted">Choose two different weeks.</p>` : nothing}
      ${this.diff.render({
        pending: () =>
          html`<p class="muted" role="status">
            Comparing ${q.before} with ${q.after}… A week not asked for lately is first rebuilt from the weeks dataset: several seconds a week.
          </p>`,
        complete: (value) =>
          value
            ? html`<snapshot-diff-result
                .diff=${value.diff}
                .notes=${
                  [
                    ['Before', q.before],
                    ['After', q.after],
                    ['Source', WEEKS_SOURCE],
                    ['Live sites lost', LOST_DEFINITION],
                  ] as [string, string][]
                }
                .names=${{ before: q.before, after: q.after }}
              ></snapshot-diff-result>`
            : nothing,
        error: (e) => html`<p class="error" role="alert">${e instanceof Error ? e.message : String(e)}</p>`,
      })}
    </section>`;
  }

  private loaded(weeks: SnapshotWeek[]) {
    const q = this.query;
    const trendsQuery: TrendsQuery = q.by === 'bureau' && q.agency ? { by: 'bureau', agency: q.agency } : { by: q.by };
    return html`<p class="span" data-span>
        <strong>${weeks.length}</strong> weekly snapshots, <strong>${weeks[0]?.date ?? '—'}</strong> to
        <strong>${weeks.at(-1)?.date ?? '—'}</strong>, held in this browser.
      </p>
      <weeks-trends .query=${q} .trendsQuery=${trendsQuery} @trends-change=${(e: TrendsChangeEvent) => this.go(e.patch)}></weeks-trends>
      ${this.compare(weeks)}`;
  }

  override render() {
    return html`<div class="top">
        <h1 id="view-title" tabindex="-1">Every week</h1>
        <span class="muted">Site Scanning, week by week</span>
      </div>
      ${this.weeks.render({
        pending: () => html`<p class="muted" role="status">Reading the weeks…</p>`,
        error: (e) => html`<p class="error" role="alert">${e instanceof Error ? e.message : String(e)}</p>`,
        complete: (weeks) => (weeks ? this.loaded(weeks) : html`<weeks-load @weeks-loaded=${() => void this.weeks.run()}></weeks-load>`),
      })}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'weeks-view': WeeksView;
  }
}
