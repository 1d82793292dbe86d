import { LitElement, html, css, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { dbContext } from '../../api/context.ts';
import type { DbClient } from '../../api/db-client.ts';
import { baseStyles } from '../common/styles.ts';
import { formatBytes } from '../common/format.ts';
import { importController, type ImportState } from '../import/import-controller.ts';
import { datasetDefinition } from '../../../engine/dataset-registry.ts';

/** Fired once the weeks are loaded, so the view asks for them again. */
export const WEEKS_LOADED = 'weeks-loaded';

/**
 * The offer to load every week (the websites' weeks attachment, a built-in extra downloaded only when asked and
 * kept offline): its size, a button, and the load's outcome. Loading it does not change the week the rest of the
 * app answers from.
 */
@customElement('weeks-load')
export class WeeksLoad extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host {
        margin-bottom: 0.75rem;
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  /** The offer's heading (a site's page names what loading would add to it). */
  @property() heading = 'The weeks are not loaded';
  /** Draw nothing when the build holds no weeks (a page where they are an extra, not the subject). */
  @property({ type: Boolean }) quiet = false;
  @state() private importing: ImportState = importController.state;
  private unsubscribe: (() => void) | null = null;

  private readonly extra = new Task(this, {
    task: async ([db]: [DbClient]) => (await db.status()).extras?.find((e) => e.id === datasetDefinition('websites').attachment?.id) ?? null,
    args: () => [this.db] as [DbClient],
  });

  /** Why the weeks kept here could not be read (a copy an older version of the app kept), said above the offer. */
  private readonly refused = new Task(this, {
    task: async ([db]: [DbClient]) => db.weeksRefused(),
    args: () => [this.db] as [DbClient],
  });

  override connectedCallback(): void {
    super.connectedCallback();
    this.unsubscribe = importController.subscribe((state) => {
      const was = this.importing;
      this.importing = state;
      if (was.kind === 'running' && state.kind === 'done' && state.outcome.ok) {
        this.dispatchEvent(new Event(WEEKS_LOADED, { bubbles: true, composed: true }));
      }
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
  }

  override render() {
    if (this.quiet && this.extra.value === null) return nothing;
    const running = this.importing.kind === 'running';
    const failed = this.importing.kind === 'done' && !this.importing.outcome.ok ? this.importing.outcome.message : '';
    const refused = this.refused.value;
    return html`<section class="card" aria-labelledby="weeks-load-h" data-weeks="not-loaded">
      <h2 id="weeks-load-h">${this.heading}</h2>
      ${
        refused
          ? html`<p class="error" role="alert" data-refused>
              The weeks kept in this browser cannot be read (${refused}). Load them again: the new copy replaces it.
            </p>`
          : nothing
      }
      ${this.extra.render({
        pending: () => html`<p class="muted">Reading what this build holds…</p>`,
        error: (e) => html`<p class="error" role="alert">${e instanceof Error ? e.message : String(e)}</p>`,
        complete: (extra) =>
          extra
            ? html`<p>
                  Every week of Site Scanning this app ships (${extra.source.label}) is ${formatBytes(extra.bytes)} to download, once: it is
                  then kept in this browser and answers offline. Loading it does not change the week the Websites list answers from.
                </p>
                <button type="button" class="primary" ?disabled=${running} @click=${() => void importController.startBuiltIn(this.db, extra.id, extra.title, extra.bytes)}>
                  ${running ? 'Loading…' : `Load every week (${formatBytes(extra.bytes)})`}
                </button>
                ${failed ? html`<p class="error" role="alert">${failed}</p>` : nothing}`
            : html`<p>This build does not hold the weeks (the default build does: they give the trends and each site's weeks).</p>`,
      })}
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'weeks-load': WeeksLoad;
  }
}
