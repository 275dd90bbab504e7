import { useCallback, useEffect, useRef, useState } from 'react';
import type { Generation, GenerationImage } from '../../../../events/generations';
import { GENERATION_FAILED_TOAST, GENERATION_TIMED_OUT, IMAGE_GENERATION_FAILED, type GenerationStatus, type Style } from '../../../../events/generation-values';
import { ApiError } from '../../api/client';
import { useToast } from '../../components/Toast';
import type { GenerationApi } from '../../generation/api';
import { clearDraft } from '../../generation/draft';
import { startAttempt, startWasAnswered, type UnansweredStart } from '../../generation/format';
import { GenerationTimedOutError, PollAbortedError, pollGeneration } from '../../generation/poll';
import { errorText } from '../../lib/errorText';

/** Why the last run ended without images, shown under the form (the toast says it too, briefly). */
type Problem = { message: string; pricing?: boolean };

export interface GenerationRun {
  running: boolean;
  /** The run's status while it runs. */
  status?: GenerationStatus;
  generation?: Generation;
  results: GenerationImage[];
  problem?: Problem;
  /** Words for the results' polite live region. */
  announce: string;
  generate(request: { talentId: string; prompt: string; style: Style; count: number }): Promise<void>;
}

/**
 * One generation at a time (docs/product.md#create): `POST /generations`, then the generation
 * followed every 5 s until its images are in; leaving the page stops following it. A start that
 * got no answer resends its key when the same is generated again, so a lost answer never makes a
 * second generation. `onSettled` runs after each run (the balance changed).
 */
export function useGenerationRun(api: GenerationApi, onSettled: () => void): GenerationRun {
  const toast = useToast();
  const [running, setRunning] = useState(false);
  const [generation, setGeneration] = useState<Generation>();
  const [results, setResults] = useState<GenerationImage[]>([]);
  const [problem, setProblem] = useState<Problem>();
  const [announce, setAnnounce] = useState('');
  const run = useRef<AbortController | null>(null);
  useEffect(() => () => run.current?.abort(), []);
  const unanswered = useRef<UnansweredStart | undefined>(undefined);

  const fail = useCallback(
    (message: string, pricing = false) => {
      setProblem({ message, pricing });
      toast({ title: GENERATION_FAILED_TOAST(message), variant: 'error', duration: 8000 });
    },
    [toast],
  );

  async function generate(request: { talentId: string; prompt: string; style: Style; count: number }) {
    run.current?.abort();
    const controller = new AbortController();
    run.current = controller;
    setRunning(true);
    setResults([]);
    setProblem(undefined);
    setGeneration(undefined);
    setAnnounce('Generating your images. This takes about a minute.');
    const attempt = startAttempt(unanswered.current, request);
    unanswered.current = attempt;
    try {
      const started = await api.start(request, attempt.key).catch((err: unknown) => {
        if (err instanceof ApiError && startWasAnswered(err.status)) unanswered.current = undefined;
        throw err;
      });
      unanswered.current = undefined;
      clearDraft();
      const final = await pollGeneration({ get: (gid) => api.get(gid), id: started.id, signal: controller.signal, onUpdate: setGeneration });
      if (final.status === 'succeeded') {
        setResults(final.images);
        setAnnounce(`${final.images.length} ${final.images.length === 1 ? 'image is' : 'images are'} ready.`);
      } else {
        const message = final.failure?.message ?? (final.status === 'canceled' ? 'The generation was canceled.' : IMAGE_GENERATION_FAILED);
        setProblem({ message, pricing: final.failure?.code === 'insufficient-credits' });
        setAnnounce(`${IMAGE_GENERATION_FAILED}. ${message}`);
        toast({ title: IMAGE_GENERATION_FAILED, description: message, variant: 'error', duration: 8000 });
      }
    } catch (err) {
      if (err instanceof PollAbortedError) return;
      if (err instanceof GenerationTimedOutError) {
        setProblem({ message: `${GENERATION_TIMED_OUT}. If it finishes later, your images appear in your client portal.` });
        setAnnounce(GENERATION_TIMED_OUT);
        toast({ title: GENERATION_TIMED_OUT, variant: 'error', duration: 8000 });
      } else {
        const message = errorText(err, 'Something went wrong. Try again.');
        setAnnounce(GENERATION_FAILED_TOAST(message));
        fail(message, err instanceof ApiError && err.status === 409 && /credits/i.test(message));
      }
    } finally {
      if (run.current === controller) {
        run.current = null;
        setRunning(false);
        onSettled();
      }
    }
  }

  const status: GenerationStatus | undefined = running ? (generation?.status ?? 'queued') : undefined;
  return { running, status, generation, results, problem, announce, generate };
}
