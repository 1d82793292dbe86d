/**
 * A contract's price list in the rates view: the exact-value search of its contract number (`search=idv_piid:…`,
 * the API's own), under which the view shows the list's summary above its rates.
 */
import { emptyRatesQuery, ratesHashParams } from './rates-query.ts';
import { formatRoute } from './route.ts';

export function contractHash(contract: string): string {
  return formatRoute({ view: 'rates', query: ratesHashParams({ ...emptyRatesQuery(), search: { field: 'idv_piid', text: contract } }) });
}
