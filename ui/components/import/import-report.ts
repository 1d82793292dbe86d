import { html, nothing } from 'lit';
import type { ImportReport } from '../../api/db-client.ts';
import { formatCount } from '../common/format.ts';
import { ENCODING_LABELS } from '../../../dataset/import/source.ts';

const SHOWN_REJECTED = 8;
const SHOWN_VALUES = 8;

/** The import's report as the user reads it: counts, warnings, the first rejected rows, normalised values. */
export function renderReport(report: ImportReport) {
  const rejected = report.rejected.slice(0, SHOWN_REJECTED);
  const values = report.values.slice(0, SHOWN_VALUES);
  return html`<div class="report" data-report>
    <p>
      <strong data-imported=${report.rowsImported}>${formatCount(report.rowsImported)}</strong> rows imported,
      <strong data-rejected=${report.rowsRejected}>${formatCount(report.rowsRejected)}</strong> rejected
      (of ${formatCount(report.rowsRead)} read${report.metadataRows ? `, ${report.metadataRows} metadata rows skipped` : ''}).
      ${report.encoding !== 'text' ? html`Read as <span data-encoding=${report.encoding}>${ENCODING_LABELS[report.encoding]}</span>.` : nothing}
    </p>
    ${report.warnings.length ? html`<ul class="warnings">${report.warnings.map((w) => html`<li>${w}</li>`)}</ul>` : nothing}
    ${
      rejected.length
        ? html`<details open>
          <summary>Rejected rows${report.rowsRejected > rejected.length ? ` (first ${rejected.length} of ${formatCount(report.rowsRejected)})` : ''}</summary>
          <ul class="rejected">
            ${rejected.map((r) => html`<li data-line=${r.line ?? ''}>${r.line !== null ? `Line ${r.line}` : `Record ${r.record}`}: ${r.reason}</li>`)}
          </ul>
        </details>`
        : nothing
    }
    ${
      values.length
        ? html`<details>
          <summary>Values normalised (${report.values.length} kinds)</summary>
          <ul class="values">
            ${values.map(
              (v) => html`<li>
                <code>${v.field}</code>: ${v.kind} (${v.outcome.replaceAll('-', ' ')}) × ${formatCount(v.count)}
                ${v.examples[0] ? html`<span class="muted">— e.g. “${clip(v.examples[0].original)}” → ${v.examples[0].value === null ? 'null' : `“${clip(v.examples[0].value)}”`}</span>` : nothing}
              </li>`,
            )}
          </ul>
        </details>`
        : nothing
    }
  </div>`;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
