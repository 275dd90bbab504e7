import { FINAL_STATUSES } from '../../events/generation-values';
import { Generation, GenerationStarted, LicenseDownload } from '../../events/generations';
import { accountStore } from '../../functions/accounts/store';
import { seedUser } from '../../infra/local/provision';
import { eventually } from './eventually';
import { callApi, documentClient, idToken, type TestTwin } from './twin';

/**
 * A client of its own (`marker` makes the address unique to the file) generates `count` images of
 * Maya Chen through the workflow on the twin and downloads each delivered file as its owner would:
 * the license ids and the files, in the generation's order.
 */
export async function licensedImages(
  twin: TestTwin,
  { marker, name, prompt, count = 1 }: { marker: string; name: string; prompt: string; count?: number },
): Promise<{ licenseIds: string[]; files: Buffer[] }> {
  const email = `licensed.${marker}@people.example`;
  const password = `Str0ng!Passw0rd-${marker}`;
  const user = await seedUser(twin.urls.cognito, twin.userPoolId, { email, password, groups: ['client'], name, attributes: { 'custom:role': 'client' } });
  await accountStore(documentClient(twin), twin.physicalName('AccountsTable')).create({ id: user.sub!, email, full_name: name, role: 'client' });
  const token = await idToken(twin, email, password, 'web');
  const started = await callApi(twin, token, 'POST', '/generations', { talentId: 'maya-chen', prompt: `${prompt} ${marker}`, style: 'Portrait', count });
  if (started.status !== 202) throw new Error(`the generation was not started: ${started.status} ${started.text.slice(0, 200)}`);
  const id = GenerationStarted.parse(started.json).id;
  const generation = await eventually(
    async () => {
      const g = Generation.parse((await callApi(twin, token, 'GET', `/generations/${id}`)).json);
      return FINAL_STATUSES.includes(g.status) && g;
    },
    { timeoutMs: 90_000, what: `generation ${id} to finish` },
  );
  if (generation.status !== 'succeeded') throw new Error(`generation ${id} ended ${generation.status}`);
  const licenseIds = generation.images.map((i) => i.licenseId);
  const files = await Promise.all(
    licenseIds.map(async (licenseId) => {
      const { url } = LicenseDownload.parse((await callApi(twin, token, 'GET', `/licenses/${licenseId}/download`)).json);
      return Buffer.from(await (await fetch(url)).arrayBuffer());
    }),
  );
  return { licenseIds, files };
}
