/**
 * Query parameters in request order. URLSearchParams already decodes `+` as a space and leaves
 * malformed percent sequences as literal text, which is what both production services do.
 */
export class QueryParams {
  private readonly params: URLSearchParams;

  constructor(search: string | URLSearchParams) {
    this.params = typeof search === 'string' ? new URLSearchParams(search) : search;
  }

  /** First value of a parameter, or undefined when absent. */
  get(name: string): string | undefined {
    return this.params.get(name) ?? undefined;
  }

  getAll(name: string): string[] {
    return this.params.getAll(name);
  }

  has(name: string): boolean {
    return this.params.has(name);
  }

  entries(): [string, string][] {
    return [...this.params.entries()];
  }
}
