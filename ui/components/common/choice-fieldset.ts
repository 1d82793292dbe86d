import { html, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';

/** What a choice fieldset shows and does: its legend, its inputs' type and name, and each value's label and state. */
export interface Choices<T extends string> {
  legend: string;
  /** The class of the box around the choices, which the host styles. */
  className: string;
  type: 'radio' | 'checkbox';
  name: string;
  values: readonly T[];
  label: (value: T) => string;
  checked: (value: T) => boolean;
  change: (value: T, checked: boolean) => void;
}

/**
 * A fieldset of radio buttons or check boxes, one labelled input per value (the price check's contract year, the
 * education filter). Checked against the live input: a choice the host turned back shows as the host has it.
 */
export function choiceFieldset<T extends string>(choices: Choices<T>): TemplateResult {
  const { legend, className, type, name, values, label, checked, change } = choices;
  return html`<fieldset>
    <legend>${legend}</legend>
    <div class=${className}>
      ${values.map(
        (value) => html`<label
          ><input
            type=${type}
            name=${name}
            value=${value}
            .checked=${live(checked(value))}
            @change=${(e: Event) => change(value, (e.target as HTMLInputElement).checked)}
          />${label(value)}</label
        >`,
      )}
    </div>
  </fieldset>`;
}
