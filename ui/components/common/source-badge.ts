import { LitElement, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { dbContext } from '../../api/context.ts';
import type { DbClient } from '../../api/db-client.ts';
import type { DatasetName } from '../../../engine/http/types.ts';
import { baseStyles } from './styles.ts';
import { sourceDate } from '../../../dataset/artifact/format.ts';
import { ReloadOnReady, readyOf } from './reload-on-ready.ts';

type Kind = 'real' | 'synthetic' | 'imported';

const WORDS: Record<Kind, string> = { real: 'Real data', synthetic: 'Synthetic data', imported: 'Your file' };

/**
 * Where the active dataset's records come from, beside a view's title: a generated price or site must never be
 * taken for a real one, and a real week never for another (the badge names its date). Links to the Datasets page,
 * which says it in full.
 */
@customElement('source-badge')
export class SourceBadge extends LitElement {
  static override styles = [baseStyles];

  @consume({ context: dbContext }) db!: DbClient;
  /** The API whose active dataset is described. */
  @property() of: DatasetName = 'ceilingrates';
  @state() private source: { kind: Kind; label: string; date: string | null } | null = null;

  private readonly reloadOnReady = new ReloadOnReady(
    this,
    () => this.db,
    () => void this.read(),
    { when: (p) => readyOf(this.of)(p), onDatasetsChanged: true },
  );

  override connectedCallback(): void {
    super.connectedCallback();
    void this.read();
  }

  private async read(): Promise<void> {
    const status = (await this.db.status()).datasets.find((d) => d.name === this.of);
    if (!status?.loaded) this.source = null;
    // A built-in extra kept like an import still says what it is; only a user's own file is "your file".
    else if (status.source) this.source = { kind: status.source.kind, label: status.source.label, date: sourceDate(status.source) };
    else if (status.importName) this.source = { kind: 'imported', label: `Imported from ${status.importName}`, date: status.fileDate?.slice(0, 10) ?? null };
    else this.source = null;
  }

  override render() {
    const source = this.source;
    if (!source) return nothing;
    return html`<a class="source-badge ${source.kind}" href="#/datasets" title=${source.label} data-source=${source.kind} data-date=${source.date ?? ''}
      >${WORDS[source.kind]}${source.date ? html` · <span data-week>${source.kind === 'imported' ? `file of ${source.date}` : this.of === 'websites' && !source.date.includes(' to ') ? `week of ${source.date}` : source.date}</span>` : nothing}<span
        class="visually-hidden"
        >: ${source.label}</span
      ></a
    >`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'source-badge': SourceBadge;
  }
}
