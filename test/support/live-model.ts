import { talentStore } from '../../functions/catalog/store';
import { documentClient, type TestTwin } from './twin';

/**
 * What a talent's approval of their trained model leaves on the catalog talent (docs/training.md),
 * written straight into the twin's table: the generation config, on the emulator's preview model.
 * For tests whose point is what happens after a talent is live, not the training.
 */
export async function approvedModelConfig(twin: Pick<TestTwin, 'urls' | 'physicalName'>, talentId: string, triggerWord: string): Promise<void> {
  const set = await talentStore(documentClient(twin), twin.physicalName('CatalogTalentTable')).setGenerationConfig(talentId, { model: `humanly-preview/${triggerWord.toLowerCase()}`, triggerWord });
  if (!set) throw new Error(`no catalog talent ${talentId} to set the generation config of`);
}
