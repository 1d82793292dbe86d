import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { baseStyles } from '../common/styles.ts';
import { ENDPOINTS, endpointById, type EndpointSpec, type ParamSpec } from './endpoints.ts';
import { curlCommand, fetchSnippet, parseRequest, productionUrl, requestPath, type ParamValues } from './request-url.ts';
import { sendRequest, underBase, type ConsoleResponse } from './send.ts';
import { DIALECT_CHOICES, loadDialect, saveDialect } from './dialect.ts';
import type { Dialect } from '../../../engine/dialect/dialect.ts';

const METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;

/**
 * The API console: pick an endpoint, fill its parameters, send the request with a real `fetch()` (the
 * service worker answers it like any prototype's call), and read the answer; copy the same request as a
 * `fetch()` snippet or a curl command against production.
 *
 * `request` (a path with query) preloads the form; every change fires `api-console-change` with the
 * current path, so the shell can keep it in the URL.
 */
@customElement('api-console')
export class ApiConsole extends LitElement {
  @property() request = '';
  @state() private endpoint: EndpointSpec = ENDPOINTS[0];
  @state() private values: ParamValues = { limit: ['3'] };
  @state() private method: (typeof METHODS)[number] = 'GET';
  @state() private sending = false;
  @state() private response: ConsoleResponse | null = null;
  @state() private copied = '';
  /** The app's answer dialect (null until read): every API request of this origin is answered in it. */
  @state() private dialect: Dialect | null = null;

  static override styles = [
    baseStyles,
    css`
      :host { display: grid; gap: 0.75rem; }
      form { display: grid; gap: 0.75rem; }
      .bar { display: flex; gap: 0.6rem; flex-wrap: wrap; align-items: end; }
      .layout { display: grid; grid-template-columns: minmax(18rem, 24rem) minmax(0, 1fr); gap: 1.5rem; align-items: start; }
      .layout > section { position: sticky; top: 0.5rem; }
      .side { display: grid; gap: 0.75rem; }
      @media (max-width: 800px) { .layout { grid-template-columns: minmax(0, 1fr); } .layout > section { position: static; } }
      .url { margin: 0; }
      fieldset { border: 1px solid var(--line, #d0d7de); border-radius: 8px; padding: 0.75rem; display: grid; gap: 0.6rem; margin: 0; }
      legend { font-weight: 600; padding: 0 0.25rem; }
      label { display: grid; gap: 0.2rem; font-size: 0.9rem; }
      .head { display: flex; flex-wrap: wrap; gap: 0 0.5rem; align-items: baseline; font-size: 0.9rem; margin-bottom: 0.2rem; }
      input { width: 100%; }
      .name { font-family: ui-monospace, monospace; font-weight: 600; }
      .help { color: var(--muted, #57606a); font-size: 0.8rem; }
      .repeat { display: flex; gap: 0.4rem; }
      .repeat > :first-child { flex: 1; min-width: 0; }
      .row { display: flex; gap: 0.5rem; flex-wrap: wrap; align-items: center; }
      code, pre { font-family: ui-monospace, monospace; font-size: 0.85rem; }
      pre { background: var(--surface-2, #f6f8fa); border: 1px solid var(--line, #d0d7de); border-radius: 8px; padding: 0.75rem; overflow: auto; margin: 0; white-space: pre-wrap; word-break: break-word; }
      .body { max-height: 60vh; }
      .url { word-break: break-all; }
      .status { font-weight: 700; }
      .ok { color: #116329; }
      .fail { color: #a40e26; }
      .intro { margin: 0; color: var(--muted, #57606a); }
      dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 0.75rem; margin: 0; font-size: 0.85rem; }
      dt { font-family: ui-monospace, monospace; color: var(--muted, #57606a); }
      dd { margin: 0; font-family: ui-monospace, monospace; word-break: break-all; }
      section { display: grid; gap: 0.75rem; }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void loadDialect().then((dialect) => (this.dialect = dialect));
  }

  private async onDialect(e: Event): Promise<void> {
    const dialect = (e.target as HTMLSelectElement).value as Dialect;
    this.dialect = dialect;
    await saveDialect(dialect);
    this.response = null;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('request') && this.request) {
      const parsed = parseRequest(this.request);
      if (parsed) {
        this.endpoint = parsed.endpoint;
        this.values = parsed.values;
      }
    }
  }

  private get path(): string {
    return requestPath(this.endpoint, this.values);
  }

  override render() {
    const path = this.path;
    const production = productionUrl(this.endpoint, path);
    return html`<h1>API console</h1>
      <p class="intro">Ask the offline APIs what a prototype would ask: the request goes through <code>fetch()</code> and the
        service worker answers it from the data on this machine. Both APIs are described in OpenAPI 3.1:
        <a href="openapi.json" data-testid="openapi-link">openapi.json</a> (one per API:
        <a href="openapi/site-scanning.json">Site Scanning</a>, <a href="openapi/ceiling-rates.json">ceiling rates</a>).</p>
      <form @submit=${this.onSubmit} aria-label="Request">
      <div class="bar">
        <label>
          <span>Endpoint</span>
          <select @change=${this.onEndpoint} .value=${this.endpoint.id}>
            ${ENDPOINTS.map((e) => html`<option value=${e.id} ?selected=${e.id === this.endpoint.id}>${e.title}</option>`)}
          </select>
        </label>
        <label>
          <span>Method</span>
          <select @change=${(e: Event) => (this.method = (e.target as HTMLSelectElement).value as (typeof METHODS)[number])}>
            ${METHODS.map((m) => html`<option ?selected=${m === this.method}>${m}</option>`)}
          </select>
        </label>
        <button class="primary" type="submit" ?disabled=${this.sending}>${this.sending ? 'Sending…' : 'Send'}</button>
        <button type="button" @click=${() => this.copy('fetch', fetchSnippet(production, this.method))}>Copy as fetch()</button>
        <button type="button" @click=${() => this.copy('curl', curlCommand(production, this.method))}>Copy as curl</button>
        <span role="status" class="help">${this.copied}</span>
      </div>
      <div class="bar">
        <label>
          <span>Answers as</span>
          <select data-testid="dialect" @change=${this.onDialect} .value=${this.dialect ?? 'interface'} ?disabled=${this.dialect === null}>
            ${DIALECT_CHOICES.map((d) => html`<option value=${d.value} ?selected=${d.value === this.dialect}>${d.label}</option>`)}
          </select>
        </label>
      </div>
      <p class="help" data-testid="dialect-help">${DIALECT_CHOICES.find((d) => d.value === (this.dialect ?? 'interface'))!.help}
        It applies to every request to this app's APIs, a prototype's <code>fetch()</code> included.</p>
      <p class="url"><code data-testid="request-url">${this.method} ${underBase(path)}</code></p>
      <div class="layout">
        <div class="side">
          <fieldset>
            <legend>Parameters</legend>
            ${this.endpoint.params.map((p) => this.renderParam(p))}
          </fieldset>
          <details>
            <summary>The same request against production</summary>
            <pre data-testid="fetch-snippet">${fetchSnippet(production, this.method)}</pre>
            <pre data-testid="curl-command">${curlCommand(production, this.method)}</pre>
          </details>
        </div>
        <section aria-label="Response" aria-live="polite">${this.renderResponse()}</section>
      </div>
    </form>`;
  }

  private renderParam(param: ParamSpec) {
    const given = this.values[param.name] ?? [];
    const rows = param.repeatable ? [...given, ''] : [given[0] ?? ''];
    const listId = `values-${param.name}`;
    const control = (value: string, index: number) => {
      const onInput = (e: Event) => this.setValue(param.name, index, (e.target as HTMLInputElement | HTMLSelectElement).value);
      const label = `${param.name}${param.repeatable ? ` ${index + 1}` : ''}`;
      if (param.kind === 'enum') {
        return html`<select aria-label=${label} @change=${onInput}>
          <option value="" .selected=${value === ''}>(not sent)</option>
          ${param.values!.map((v) => html`<option .selected=${v === value}>${v}</option>`)}
        </select>`;
      }
      return html`<input
        aria-label=${label}
        type=${param.kind === 'number' ? 'number' : 'text'}
        list=${param.values ? listId : nothing}
        placeholder=${param.placeholder ?? ''}
        .value=${value}
        @input=${onInput}
      />`;
    };
    return html`<div>
      <div class="head">
        <span><span class="name">${param.name}</span>${param.inPath ? ' (path)' : ''}${param.repeatable ? ' (repeatable)' : ''}</span>
        <span class="help">${param.help}</span>
      </div>
      ${
        param.values && param.kind !== 'enum' ? html`<datalist id=${listId}>${param.values.map((v) => html`<option value=${v}></option>`)}</datalist>` : nothing
      }
      ${rows.map((value, index) =>
        param.repeatable && index < given.length
          ? html`<div class="repeat">
              ${control(value, index)}
              <button type="button" aria-label="Remove ${param.name} ${index + 1}" @click=${() => this.removeValue(param.name, index)}>×</button>
            </div>`
          : control(value, index),
      )}
    </div>`;
  }

  private renderResponse() {
    const r = this.response;
    if (!r) return html`<p class="help">Send a request to see the answer: status, headers, body and time taken.</p>`;
    if (r.error) return html`<p class="status fail" data-testid="response-status">Failed: ${r.error}</p>`;
    return html`
      <p>
        <span class="status ${r.status < 400 ? 'ok' : 'fail'}" data-testid="response-status">${r.status} ${r.statusText}</span>
        · <span data-testid="response-time">${r.ms.toFixed(1)} ms</span>
        · ${r.fromServiceWorker ? 'answered locally by the service worker' : 'no service worker controls this page: answered by the network'}
      </p>
      <h2>Headers</h2>
      <dl data-testid="response-headers">${r.headers.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}</dl>
      <h2>Body</h2>
      <pre class="body" tabindex="0" aria-label="Response body" data-testid="response-body">${r.body}</pre>
    `;
  }

  private onEndpoint(e: Event): void {
    const next = endpointById((e.target as HTMLSelectElement).value);
    if (!next) return;
    // Carry over the values the new endpoint also takes (the websites filters are shared with /analysis).
    const carried: ParamValues = {};
    for (const p of next.params) if (this.values[p.name]) carried[p.name] = this.values[p.name];
    this.endpoint = next;
    this.values = carried;
    this.changed();
  }

  private setValue(name: string, index: number, value: string): void {
    const list = [...(this.values[name] ?? [])];
    list[index] = value;
    this.values = { ...this.values, [name]: list.filter((v, i) => v !== '' || i < list.length - 1) };
    this.changed();
  }

  private removeValue(name: string, index: number): void {
    const list = (this.values[name] ?? []).filter((_, i) => i !== index);
    this.values = { ...this.values, [name]: list };
    this.changed();
  }

  private changed(): void {
    this.dispatchEvent(new CustomEvent('api-console-change', { detail: { request: this.path }, bubbles: true, composed: true }));
  }

  private async onSubmit(e: Event): Promise<void> {
    e.preventDefault();
    this.sending = true;
    this.response = await sendRequest(this.path, this.method);
    this.sending = false;
  }

  private async copy(what: string, text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.copied = `${what} copied`;
    } catch {
      // Clipboard access can be refused (permissions, insecure context): the text is shown below to select.
      this.copied = `cannot reach the clipboard: select the ${what} text under "Against production"`;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'api-console': ApiConsole;
  }
}
