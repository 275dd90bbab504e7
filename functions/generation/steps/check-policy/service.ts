import { likenessState } from '../../../../events/likeness';
import {
  TALENT_UNDER_CONTRACT_MESSAGE,
  TALENT_NOT_CONFIGURED_MESSAGE,
  TALENT_PAUSED_MESSAGE,
  TALENT_REMOVED_MESSAGE,
  TALENT_UNAVAILABLE_MESSAGE,
  excludedIndustryMessage,
  excludedIndustryOf,
} from '../../../../events/generation-values';
import type { LikenessControls } from '../../../../events/generations';
import type { Talent } from '../../../../events/talent';
import type { GenerationStore } from '../../store';
import type { TalentStore } from '../../../catalog';
import { log } from '../../../shared/log';
import { IndustryCheckUnavailable, PolicyRefused } from '../../errors';
import type { IndustryClassifier } from '../../industry-classifier';
import { generationOf } from '../../prediction';

export interface CheckPolicyDeps {
  store: GenerationStore;
  talent: Pick<TalentStore, 'getForGeneration'>;
  now: () => Date;
  /** The language model asked after the word lists pass (decision 039); absent where the stage names none. */
  classifier?: IndustryClassifier;
}

/**
 * Why a talent's choices refuse this generation (the client reads the message), or undefined
 * when it may go ahead. In order: the talent exists and is active, has not removed their
 * likeness, has not paused generation, is not under an exclusive contract with another client,
 * the prompt is outside their excluded industries, and their model is set up.
 */
export function policyRefusal(
  found: { talent: Talent; controls: LikenessControls } | undefined,
  generation: { accountId: string; prompt: string },
  now: Date,
): string | undefined {
  if (!found) return TALENT_UNAVAILABLE_MESSAGE;
  const { talent, controls } = found;
  const state = likenessState(controls, now);
  if (state === 'removed') return TALENT_REMOVED_MESSAGE;
  if (talent.status !== 'active') return TALENT_UNAVAILABLE_MESSAGE;
  if (controls.paused) return TALENT_PAUSED_MESSAGE;
  if (state === 'frozen' && controls.frozen?.accountId !== generation.accountId) return TALENT_UNDER_CONTRACT_MESSAGE;
  const industry = excludedIndustryOf(generation.prompt, controls.excludedIndustries ?? []);
  if (industry) return excludedIndustryMessage(industry);
  if (!controls.generation) return TALENT_NOT_CONFIGURED_MESSAGE;
  return undefined;
}

/**
 * Step CheckPolicy: PolicyRefused (code `policy`) with the reason, or the step recorded as passed.
 * When everything else allows it and the talent excludes industries, the classifier is asked
 * too: an industry it names refuses like the word lists; no answer is IndustryCheckUnavailable,
 * which the workflow retries and then records as a failure (fail closed, decision 039).
 */
export async function checkPolicy(deps: CheckPolicyDeps, generationId: string): Promise<{ allowed: true }> {
  const generation = await generationOf(deps.store, generationId);
  const found = await deps.talent.getForGeneration(generation.talentId);
  const refusal = policyRefusal(found, generation, deps.now());
  if (refusal) throw new PolicyRefused(refusal);
  const excluded = found?.controls.excludedIndustries ?? [];
  let detail = 'allowed';
  if (deps.classifier && excluded.length > 0) {
    let industry;
    try {
      industry = await deps.classifier.classify(generation.prompt, excluded);
    } catch (err) {
      if (err instanceof IndustryCheckUnavailable) log.error('the industry classifier gave no answer', err, { generationId, reason: err.reason });
      throw err;
    }
    if (industry) {
      log.info('the industry classifier refused a prompt', { generationId, industry });
      throw new PolicyRefused(excludedIndustryMessage(industry));
    }
    detail = 'allowed (word lists and classifier)';
  }
  await deps.store.recordStep(generationId, { step: 'CheckPolicy', at: deps.now().toISOString(), detail, once: true });
  return { allowed: true };
}
