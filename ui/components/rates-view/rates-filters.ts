import { LitElement, html, css } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import { baseStyles, bareFieldsetStyles } from '../common/styles.ts';
import { choiceFieldset } from '../common/choice-fieldset.ts';
import { EDUCATION_LEVELS, emptyRatesQuery, type RatesQuery, type Range } from '../../state/rates-query.ts';

const EDUCATION_LABELS: Record<string, string> = {
  HS: 'High school',
  AA: 'Associate',
  BA: 'Bachelor',
  MA: 'Master',
  PHD: 'Doctorate',
  TEC: 'Technical',
  NONE: 'None',
  OTHER: 'Other',
};

type FilterPatch = Partial<Pick<RatesQuery, 'education' | 'experience' | 'price' | 'businessSize' | 'site' | 'clearance' | 'sin' | 'category'>>;

/** The filter panel: every filter the ceiling-rates API accepts. Values come from, and go back to, the URL. */
@customElement('rates-filters')
export class RatesFilters extends LitElement {
  static override styles = [
    baseStyles,
    bareFieldsetStyles,
    css`
      form {
        display: grid;
        gap: 0.9rem;
      }
      legend,
      .label {
        font-weight: 600;
        font-size: 0.9rem;
        margin-bottom: 0.3rem;
        padding: 0;
      }
      .checks {
        display: grid;
        grid-template-columns: 1fr 1fr;
        gap: 0.15rem 0.5rem;
      }
      .checks label {
        display: flex;
        gap: 0.35rem;
        align-items: center;
        font-size: 0.9rem;
      }
      .range {
        display: grid;
        grid-template-columns: 1fr auto 1fr;
        gap: 0.35rem;
        align-items: center;
      }
      .range input {
        width: 100%;
      }
      .field label {
        display: block;
        font-weight: 600;
        font-size: 0.9rem;
        margin-bottom: 0.3rem;
      }
      .field select,
      .field input {
        width: 100%;
      }
      .head {
        display: flex;
        justify-content: space-between;
        align-items: baseline;
      }
    `,
  ];

  @property({ attribute: false }) query!: RatesQuery;

  private emit(patch: FilterPatch): void {
    this.dispatchEvent(new FiltersChangeEvent(patch));
  }

  private toggleEducation(level: string, on: boolean): void {
    const set = new Set(this.query.education);
    if (on) set.add(level);
    else set.delete(level);
    this.emit({ education: EDUCATION_LEVELS.filter((l) => set.has(l)) });
  }

  private rangeInput(name: 'experience' | 'price', which: 0 | 1, e: Event): void {
    const text = (e.target as HTMLInputElement).value.trim();
    const value = text === '' || !Number.isFinite(Number(text)) ? null : Number(text);
    const range: Range = [...this.query[name]];
    range[which] = value;
    this.emit({ [name]: range });
  }

  private text(name: 'sin' | 'category', e: Event): void {
    this.emit({ [name]: (e.target as HTMLInputElement).value.trim() });
  }

  private select(name: 'businessSize' | 'site' | 'clearance', e: Event): void {
    this.emit({ [name]: (e.target as HTMLSelectElement).value });
  }

  private clearAll(): void {
    const e = emptyRatesQuery();
    this.emit({
      education: e.education,
      experience: e.experience,
      price: e.price,
      businessSize: '',
      site: '',
      clearance: '',
      sin: '',
      category: '',
    });
  }

  private range(name: 'experience' | 'price', label: string, unit: string, step: string) {
    const bound = (which: 0 | 1) => {
      const value = this.query[name][which];
      const [word, end] = which === 0 ? ['minimum', 'min'] : ['maximum', 'max'];
      return html`<input
        type="number"
        min="0"
        step=${step}
        inputmode="decimal"
        aria-label="${label}: ${word} ${unit}"
        placeholder=${which === 0 ? 'Min' : 'Max'}
        name="${name}-${end}"
        .value=${live(value === null ? '' : String(value))}
        @change=${(e: Event) => this.rangeInput(name, which, e)}
      />`;
    };
    return html`<fieldset>
      <legend>${label}</legend>
      <div class="range">${bound(0)}<span aria-hidden="true">to</span>${bound(1)}</div>
    </fieldset>`;
  }

  override render() {
    const q = this.query;
    return html`<form @submit=${(e: Event) => e.preventDefault()} aria-label="Filters">
      <div class="head">
        <h2>Filters</h2>
        <button type="button" class="link" @click=${this.clearAll}>Clear filters</button>
      </div>
      ${choiceFieldset({
        legend: 'Education level',
        className: 'checks',
        type: 'checkbox',
        name: 'education',
        values: EDUCATION_LEVELS,
        label: (level) => EDUCATION_LABELS[level],
        checked: (level) => q.education.includes(level),
        change: (level, on) => this.toggleEducation(level, on),
      })}
      ${this.range('experience', 'Years of experience', 'years', '1')} ${this.range('price', 'Hourly price', 'dollars', '0.01')}
      <div class="field">
        <label for="business-size">Business size</label>
        <select id="business-size" name="business_size" @change=${(e: Event) => this.select('businessSize', e)}>
          <option value="" .selected=${!q.businessSize}>Any size</option>
          <option value="S" .selected=${q.businessSize === 'S'}>Small business</option>
          <option value="O" .selected=${q.businessSize === 'O'}>Other than small</option>
        </select>
      </div>
      <div class="field">
        <label for="site">Worksite</label>
        <select id="site" name="site" @change=${(e: Event) => this.select('site', e)}>
          <option value="" .selected=${!q.site}>Any worksite</option>
          <option value="customer" .selected=${q.site === 'customer'}>Customer</option>
          <option value="contractor" .selected=${q.site === 'contractor'}>Contractor</option>
          <option value="both" .selected=${q.site === 'both'}>Both</option>
        </select>
      </div>
      <div class="field">
        <label for="clearance">Security clearance</label>
        <select id="clearance" name="security_clearance" @change=${(e: Event) => this.select('clearance', e)}>
          <option value="" .selected=${!q.clearance}>Any</option>
          <option value="yes" .selected=${q.clearance === 'yes'}>Required</option>
          <option value="no" .selected=${q.clearance === 'no'}>Not required</option>
        </select>
      </div>
      <div class="field">
        <label for="sin">SIN</label>
        <input id="sin" name="sin" type="text" placeholder="e.g. 54151S" .value=${live(q.sin)} @change=${(e: Event) => this.text('sin', e)} />
      </div>
      <div class="field">
        <label for="category">Category</label>
        <input
          id="category"
          name="category"
          type="text"
          placeholder="Exact category name"
          .value=${live(q.category)}
          @change=${(e: Event) => this.text('category', e)}
        />
      </div>
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'rates-filters': RatesFilters;
  }
  interface HTMLElementEventMap {
    'filters-change': FiltersChangeEvent;
  }
}

/** Some filters changed; the view goes back to page 1 with them. */
export class FiltersChangeEvent extends Event {
  constructor(readonly patch: FilterPatch) {
    super('filters-change', { bubbles: true, composed: true });
  }
}
