import { generationsWith, stepLabel } from '../../../admin/src/generations/labels';

// The words the console shows for the generation workflow's steps, and the dashboard's link.
describe('the generation labels', () => {
  it.each([
    ['ReserveCredits', 'Reserve credits'],
    ['CheckPolicy', 'Check policy'],
    ['Webhook', 'Webhook'],
    ['timed-out', 'Timed out'],
  ])('reads the step %s as "%s"', (step, label) => {
    expect(stepLabel(step)).toBe(label);
  });

  it("links the dashboard's figure to the list filtered to failed generations", () => {
    const link = new URL(generationsWith('failed').slice(1), 'http://console.test');
    expect(JSON.parse(link.searchParams.get('filter')!)).toEqual({ status: 'failed' });
    expect(link.pathname).toBe('/generations');
  });
});
