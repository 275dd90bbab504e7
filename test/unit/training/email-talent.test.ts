// Step EmailTalent: the "model ready" email of a training is sent once however often the step
// runs (decision 050: the idempotency utility alone, no flag on the training), and a failed send
// leaves nothing behind, so the step's retry sends it.
import { inMemoryIdempotency } from '../../../functions/shared/idempotency';
import type { Email } from '../../../functions/shared/email-layout';
import type { TrainingRecord } from '../../../functions/training/store';
import { emailTalent } from '../../../functions/training/steps/email-talent/service';

describe('emailTalent', () => {
  const training = { id: 'tr_1', applicationId: 'app_1', number: 1 } as unknown as TrainingRecord;
  const setup = (fail = 0) => {
    const sent: Array<{ to: string; email: Email }> = [];
    let failures = fail;
    const deps = {
      store: { getTraining: async (id: string) => (id === training.id ? training : undefined) },
      founding: { getApplication: async () => ({ email: 'maya@example.com', firstName: 'Maya' }) as never },
      send: async (to: string, email: Email) => {
        if (failures-- > 0) throw new Error('SES throttled');
        sent.push({ to, email });
        return 'message-id';
      },
      once: inMemoryIdempotency(),
      siteUrl: 'https://humanly.example',
    };
    return { deps, sent };
  };

  it('sends the email once: a repeat of the step answers sent: false and sends nothing', async () => {
    const { deps, sent } = setup();
    await expect(emailTalent(deps, 'tr_1')).resolves.toEqual({ sent: true });
    await expect(emailTalent(deps, 'tr_1')).resolves.toEqual({ sent: false });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe('maya@example.com');
    expect(sent[0]!.email.text).toContain('https://humanly.example/talent-portal');
  });

  it('a failed send is tried again by the retry and then sent once', async () => {
    const { deps, sent } = setup(1);
    await expect(emailTalent(deps, 'tr_1')).rejects.toThrow('SES throttled');
    await expect(emailTalent(deps, 'tr_1')).resolves.toEqual({ sent: true });
    await expect(emailTalent(deps, 'tr_1')).resolves.toEqual({ sent: false });
    expect(sent).toHaveLength(1);
  });

  it('an unknown training fails the step', async () => {
    const { deps } = setup();
    await expect(emailTalent(deps, 'tr_missing')).rejects.toThrow();
  });
});
