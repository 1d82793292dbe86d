import { LitElement, html, css } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import { baseStyles } from '../common/styles.ts';
import { formatCount } from '../common/format.ts';
import type { AgencyOwners } from '../../api/db-client.ts';
import { SCAN_STATUSES, type WebsiteFilter, type WebsitesQuery } from '../../state/websites-query.ts';

export class WebsiteFiltersChangeEvent extends Event {
  constructor(readonly filters: WebsitesQuery['filters']) {
    super('website-filters-change', { bubbles: true, composed: true });
  }
}

const BOOLEANS: { name: WebsiteFilter; label: string; yes: string; no: string }[] = [
  { name: 'final_url_live', label: 'Live (2xx)', yes: 'Live', no: 'Not live' },
  { name: 'target_url_redirects', label: 'Redirects', yes: 'Redirects', no: 'Does not redirect' },
  { name: 'dap_detected_final_url', label: 'Digital Analytics Program', yes: 'DAP detected', no: 'No DAP' },
];

const DOMAINS: { name: WebsiteFilter; id: string; label: string; example: string }[] = [
  { name: 'target_url_domain', id: 'f-target-domain', label: 'Target base domain', example: 'gsa.gov' },
  { name: 'final_url_domain', id: 'f-final-domain', label: 'Final base domain', example: 'usa.gov' },
];

/** A picker for every `/websites` filter; agencies and bureaus come from the data itself. */
@customElement('websites-filters')
export class WebsitesFilters extends LitElement {
  static override styles = [
    baseStyles,
    css`
      form {
        display: grid;
        grid-template-columns: repeat(4, minmax(0, 1fr));
        gap: 0.75rem 1rem;
        align-items: end;
      }
      .field {
        display: grid;
        gap: 0.25rem;
      }
      label {
        font-weight: 600;
        font-size: 0.9rem;
      }
      select,
      input {
        width: 100%;
        font-weight: 400;
      }
      .wide {
        grid-column: span 2;
      }
      .actions {
        display: flex;
        justify-content: flex-end;
      }
      @media (max-width: 900px) {
        form {
          grid-template-columns: repeat(2, minmax(0, 1fr));
        }
      }
      @media (max-width: 480px) {
        form {
          grid-template-columns: 1fr;
        }
        .wide {
          grid-column: auto;
        }
      }
    `,
  ];

  @property({ attribute: false }) query!: WebsitesQuery;
  @property({ attribute: false }) owners: AgencyOwners[] = [];

  private set(name: WebsiteFilter, value: string): void {
    const filters = { ...this.query.filters, [name]: value.trim() || undefined };
    // A bureau belongs to an agency: changing the agency drops a bureau it does not have.
    if (name === 'target_url_agency_owner' && filters.target_url_bureau_owner) {
      const agency = this.owners.find((o) => o.agency === filters.target_url_agency_owner);
      if (agency && !agency.bureaus.some((b) => b.bureau === filters.target_url_bureau_owner)) {
        delete filters.target_url_bureau_owner;
      }
    }
    for (const key of Object.keys(filters) as WebsiteFilter[]) if (!filters[key]) delete filters[key];
    this.dispatchEvent(new WebsiteFiltersChangeEvent(filters));
  }

  private bureaus(): { bureau: string; count: number }[] {
    const agency = this.query.filters.target_url_agency_owner;
    const owners = agency ? this.owners.filter((o) => o.agency === agency) : this.owners;
    const counts = new Map<string, number>();
    for (const o of owners) for (const b of o.bureaus) counts.set(b.bureau, (counts.get(b.bureau) ?? 0) + b.count);
    return [...counts].map(([bureau, count]) => ({ bureau, count })).sort((a, b) => a.bureau.localeCompare(b.bureau, 'en'));
  }

  override render() {
    const f = this.query.filters;
    const onChange = (name: WebsiteFilter) => (e: Event) => this.set(name, (e.target as HTMLInputElement | HTMLSelectElement).value);
    const agencyKnown = !f.target_url_agency_owner || this.owners.some((o) => o.agency === f.target_url_agency_owner);
    const bureaus = this.bureaus();
    const bureauKnown = !f.target_url_bureau_owner || bureaus.some((b) => b.bureau === f.target_url_bureau_owner);
    return html`<form @submit=${(e: Event) => e.preventDefault()} aria-label="Website filters">
      <div class="field wide">
        <label for="f-agency">Agency</label>
        <select id="f-agency" name="target_url_agency_owner" @change=${onChange('target_url_agency_owner')}>
          <option value="" .selected=${!f.target_url_agency_owner}>Any agency (${formatCount(this.owners.length)})</option>
          ${agencyKnown ? '' : html`<option .selected=${true} value=${f.target_url_agency_owner!}>${f.target_url_agency_owner}</option>`}
          ${this.owners.map(
            (o) => html`<option value=${o.agency} .selected=${o.agency === f.target_url_agency_owner}>
              ${o.agency} (${formatCount(o.count)})
            </option>`,
          )}
        </select>
      </div>
      <div class="field wide">
        <label for="f-bureau">Bureau</label>
        <select id="f-bureau" name="target_url_bureau_owner" @change=${onChange('target_url_bureau_owner')}>
          <option value="" .selected=${!f.target_url_bureau_owner}>Any bureau (${formatCount(bureaus.length)})</option>
          ${bureauKnown ? '' : html`<option .selected=${true} value=${f.target_url_bureau_owner!}>${f.target_url_bureau_owner}</option>`}
          ${bureaus.map(
            (b) => html`<option value=${b.bureau} .selected=${b.bureau === f.target_url_bureau_owner}>
              ${b.bureau} (${formatCount(b.count)})
            </option>`,
          )}
        </select>
      </div>
      ${DOMAINS.map(
        (d) => html`<div class="field">
          <label for=${d.id}>${d.label}</label>
          <input
            id=${d.id}
            name=${d.name}
            type="text"
            placeholder="e.g. ${d.example}"
            .value=${live(f[d.name] ?? '')}
            @change=${onChange(d.name)}
          />
        </div>`,
      )}
      <div class="field wide">
        <label for="f-scan-status">Scan status</label>
        <select id="f-scan-status" name="scan_status" @change=${onChange('scan_status')}>
          <option value="" .selected=${!f.scan_status}>Any status</option>
          ${SCAN_STATUSES.map((s) => html`<option value=${s} .selected=${s === f.scan_status}>${s.replaceAll('_', ' ')}</option>`)}
        </select>
      </div>
      ${BOOLEANS.map(
        (b) => html`<div class="field">
          <label for="f-${b.name}">${b.label}</label>
          <select id="f-${b.name}" name=${b.name} @change=${onChange(b.name)}>
            <option value="" .selected=${!f[b.name]}>Any</option>
            <option value="true" .selected=${f[b.name] === 'true'}>${b.yes}</option>
            <option value="false" .selected=${f[b.name] === 'false'}>${b.no}</option>
          </select>
        </div>`,
      )}
      <div class="actions">
        <button type="button" @click=${() => this.dispatchEvent(new WebsiteFiltersChangeEvent({}))}>Clear filters</button>
      </div>
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'websites-filters': WebsitesFilters;
  }
  interface HTMLElementEventMap {
    'website-filters-change': WebsiteFiltersChangeEvent;
  }
}
