/**
 * <api-console> alone. It asks no DB client: it sends a real fetch() on its own origin, which the service
 * worker answers in the app. Here the test answers those requests from the engine (Playwright's routing),
 * records them, and checks the form, the request it sends, the answer it shows, its change events and its
 * keyboard use.
 */
import type { Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { engineJson, focused } from '../../../harness/browsers/app.ts';
import { componentSessionPerFile } from './component-session.ts';

const session = componentSessionPerFile();
const sent: { method: string; path: string }[] = [];

beforeAll(async () => {
  const isApi = (url: URL) => /^\/(websites|analysis|api\/v3\/)/.test(url.pathname);
  await session().page.route(isApi, async (route, request: Request) => {
    const url = new URL(request.url());
    const path = url.pathname + url.search;
    sent.push({ method: request.method(), path });
    const answer = session().engine.handle({ method: request.method(), url: path });
    await route.fulfill({ status: answer.status, headers: answer.headers, body: answer.body });
  });
});

const page = () => session().page;
const requestLine = () => page().locator('[data-testid="request-url"]').textContent();

describe('api-console', () => {
  it('preloads the request it is given and sends it with Enter from a parameter box', async () => {
    sent.length = 0;
    await session().mount('api-console', { properties: { request: '/websites?limit=2&page=3' } });
    expect(await requestLine()).toBe('GET /websites?page=3&limit=2');
    await page().getByLabel('limit', { exact: true }).press('Enter');
    await expect.poll(() => page().locator('[data-testid="response-status"]').textContent()).toBe('200 OK');
    expect(sent).toEqual([{ method: 'GET', path: '/websites?page=3&limit=2' }]);
    const body = engineJson<unknown>(session().engine, '/websites?page=3&limit=2').body;
    expect(JSON.parse((await page().locator('[data-testid="response-body"]').textContent()) ?? '')).toEqual(body);
    // No service worker controls the fixture page: the console says where the answer came from.
    expect(await page().getByText('no service worker controls this page').count()).toBe(1);
    expect(session().errors).toEqual([]);
  });

  it('every edit fires api-console-change with the new request', async () => {
    await session().mount('api-console', { properties: { request: '/websites?limit=2' } });
    await session().listen('api-console-change');
    await page().getByLabel('limit', { exact: true }).fill('5');
    await page().getByLabel('scan_status', { exact: true }).selectOption('completed');
    const requests = ((await session().events('api-console-change')) as { request: string }[]).map((d) => d.request);
    expect(requests.at(-1)).toBe('/websites?scan_status=completed&limit=5');
    expect(await requestLine()).toBe('GET /websites?scan_status=completed&limit=5');
  });

  it('another endpoint keeps the parameters it shares; an error answer is shown as such', async () => {
    sent.length = 0;
    await session().mount('api-console', { properties: { request: '/websites?scan_status=completed' } });
    await page().getByLabel('Endpoint').selectOption('analysis');
    expect(await requestLine()).toBe('GET /analysis?scan_status=completed');
    await page().getByLabel('scan_status', { exact: true }).selectOption('');
    await page().getByLabel('target_url_domain', { exact: true }).fill('bad domain');
    await page().getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page().locator('[data-testid="response-status"]').textContent()).toMatch(/^400 /);
    expect(await page().locator('[data-testid="response-status"]').getAttribute('class')).toContain('fail');
    expect(sent.map((s) => s.path)).toEqual(['/analysis?target_url_domain=bad%20domain']);
  });

  it('Tab from the endpoint picker reaches the method, then Send; Space on Send sends', async () => {
    sent.length = 0;
    await session().mount('api-console', { properties: { request: '/websites?limit=1' } });
    await page().getByLabel('Endpoint').focus();
    await page().keyboard.press('Tab');
    expect(await focused(page())).toMatchObject({ tag: 'select' });
    await page().keyboard.press('Tab');
    expect(await focused(page())).toMatchObject({ tag: 'button', text: 'Send' });
    await page().keyboard.press('Space');
    await expect.poll(() => sent.length).toBe(1);
  });
});
