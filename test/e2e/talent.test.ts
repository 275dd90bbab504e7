import type { Page } from 'playwright-core';
import { gotoApp, useBrowser } from '../support/browser';
import { useTwin } from '../support/twin';
import { seriousViolations } from '../support/a11y';

// A twin of its own: the counts below are of the whole catalog, which other files' approvals grow.
const twin = useTwin({ own: true });
const browser = useBrowser();

async function open(path: string, width = 1280): Promise<{ page: Page; errors: string[] }> {
  const context = await browser().newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Hydration/.test(m.text())) errors.push(m.text());
  });
  await gotoApp(page, `${twin().urls.web}${path}`);
  return { page, errors };
}

const count = (page: Page) => page.getByTestId('library-count');
const names = (page: Page) => page.getByTestId('talent-card').getByRole('heading').allTextContents();
const tag = (page: Page, name: string) => page.getByRole('group', { name: 'Filter by tag' }).getByRole('button', { name, exact: true });

describe('Talent Library', () => {
  it('lists the talent from the catalog API, most generated first, and sorts by name', async () => {
    const { page, errors } = await open('/talent');
    await page.getByText('Showing 3 of 3 models').waitFor();
    expect(await page.title()).toMatch(/^Talent Library/);
    expect(await names(page)).toEqual(['Sofia Alvarez', 'Maya Chen', 'Jordan Rivers']);
    expect(await page.getByTestId('talent-card').first().textContent()).toContain('15,234');

    await page.getByLabel('Sort by').selectOption('name');
    // The list re-renders after the change event: wait for the first card to change, then read them all.
    await page.getByTestId('talent-card').first().getByRole('heading', { name: 'Jordan Rivers' }).waitFor();
    expect(await names(page)).toEqual(['Jordan Rivers', 'Maya Chen', 'Sofia Alvarez']);
    expect(page.url()).toContain('sort=name');
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);

  it('filters by search and by tags (toggle, multi-select, OR), with chips and Clear all', async () => {
    const { page } = await open('/talent');
    await page.getByText('Showing 3 of 3 models').waitFor();

    await page.getByPlaceholder('Search models...').fill('maya');
    await page.getByText('Showing 1 of 3 models').waitFor();
    expect(await names(page)).toEqual(['Maya Chen']);
    await page.getByPlaceholder('Search models...').fill('');

    await tag(page, 'Fashion').click();
    await tag(page, 'Fashion').and(page.locator('[aria-pressed="true"]')).waitFor();
    await page.getByText('Showing 1 of 3 models').waitFor();
    expect(await names(page)).toEqual(['Sofia Alvarez']);

    await tag(page, 'Technology').click(); // OR: Sofia (Fashion) or Jordan (Technology)
    await page.getByText('Showing 2 of 3 models').waitFor();
    expect(await names(page)).toEqual(['Sofia Alvarez', 'Jordan Rivers']);
    const chips = page.getByTestId('active-filters');
    expect(await chips.getByRole('button', { name: 'Remove filter Fashion' }).count()).toBe(1);
    expect(await chips.getByRole('button', { name: 'Remove filter Technology' }).count()).toBe(1);

    await tag(page, 'Technology').click(); // toggles off
    await tag(page, 'Technology').and(page.locator('[aria-pressed="false"]')).waitFor();
    await page.getByText('Showing 1 of 3 models').waitFor();

    await page.getByPlaceholder('Search models...').fill('jordan'); // search AND tags: nobody
    await page.getByRole('heading', { name: 'No models found' }).waitFor();
    expect(await page.getByText('Try adjusting your search terms or filters').count()).toBe(1);
    expect(await count(page).textContent()).toBe('Showing 0 of 3 models');

    await chips.getByRole('button', { name: 'Clear all', exact: true }).click();
    await page.getByText('Showing 3 of 3 models').waitFor();
    expect(await page.getByTestId('active-filters').count()).toBe(0);
    await tag(page, 'Fashion').and(page.locator('[aria-pressed="false"]')).waitFor();
    expect(await page.getByPlaceholder('Search models...').inputValue()).toBe('');
  }, 60_000);

  it('keeps its filters in the URL, so a filtered library can be shared', async () => {
    const { page } = await open('/talent?tag=Portrait&sort=name', 390);
    await page.getByText('Showing 2 of 3 models').waitFor();
    expect(await names(page)).toEqual(['Jordan Rivers', 'Maya Chen']);
    await tag(page, 'Portrait').and(page.locator('[aria-pressed="true"]')).waitFor();
  }, 60_000);
});

describe('talent profile', () => {
  it('opens from the library and shows the profile, royalties, exclusive rights and samples', async () => {
    const { page, errors } = await open('/talent');
    await page.getByRole('link', { name: 'Maya Chen' }).click();
    await page.waitForURL(/\/talent\/maya-chen$/);
    await page.getByRole('heading', { level: 1, name: 'Maya Chen' }).waitFor();
    expect(await page.title()).toMatch(/^Maya Chen/);

    expect(await page.getByRole('img', { name: 'Illustrated portrait of Maya Chen' }).getAttribute('src')).toBe('/talent/maya-chen.svg');
    expect(await page.getByText('Warm, candid lifestyle moments with a creative spark').count()).toBe(1);
    expect(await page.getByRole('list', { name: 'Tags' }).getByRole('listitem').allTextContents()).toEqual(['Lifestyle', 'Authentic', 'Creative', 'Portrait']);
    // The seed's 12,847, plus the images other tests on this twin generated with Maya's likeness.
    const { talent } = (await (await fetch(`${twin().urls.api}/talent/maya-chen`)).json()) as { talent: { generationCount: number } };
    expect(talent.generationCount).toBeGreaterThanOrEqual(12847);
    expect(await page.getByTestId('generation-count').textContent()).toContain(talent.generationCount.toLocaleString('en-US'));
    expect(await page.getByTestId('royalty-note').textContent()).toContain('35% of every licence fee, for life');

    const freeze = page.locator('#freeze');
    await freeze.getByRole('heading', { name: 'Freeze This Likeness' }).waitFor();
    for (const benefit of ['Exclusive commercial licensing', 'Custom AI model training', 'Priority generation access', 'Removal from public library']) {
      expect(await freeze.getByRole('heading', { name: benefit }).count()).toBe(1);
    }
    expect(await freeze.getByRole('link', { name: 'Contact us about exclusive rights' }).getAttribute('href')).toBe('/contact');

    expect(await page.getByRole('heading', { name: 'What you can create with Maya' }).count()).toBe(1);
    const samples = await page.locator('.sample-gallery img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src')));
    expect(samples).toEqual([1, 2, 3, 4].map((n) => `/talent/maya-chen-sample-${n}.svg`));

    const createLinks = await page.getByRole('link', { name: /with Maya/ }).evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(createLinks.length).toBeGreaterThanOrEqual(2);
    for (const href of createLinks) expect(href).toBe('/create?talent=maya-chen');
    expect(errors).toEqual([]);
  }, 60_000);

  it('states the standard tiers for talent who are not founding talent', async () => {
    const { page } = await open('/talent/jordan-rivers', 390);
    await page.getByRole('heading', { level: 1, name: 'Jordan Rivers' }).waitFor();
    const note = await page.getByTestId('royalty-note').textContent();
    expect(note).toContain('20%');
    expect(note).toContain('30% beyond 200');
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);

  it("shows 'Model not found' with a way back for an unknown id", async () => {
    const { page, errors } = await open('/talent/nobody-by-this-name');
    await page.getByRole('heading', { level: 1, name: 'Model not found' }).waitFor();
    expect(await page.title()).toMatch(/^Model not found/);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('talent-not-found').getByRole('link', { name: 'Back to Talent Library' }).click();
    await page.waitForURL(/\/talent$/);
    await page.getByText('Showing 3 of 3 models').waitFor();
    expect(errors).toEqual([]);
  }, 60_000);
});
