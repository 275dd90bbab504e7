import { AuthError } from 'aws-amplify/auth';
import { signUpAnsweringAlike } from '../../../web/src/auth/sign-up-conflict';

// The sign-up page answers a taken address as a new one (decision 040).
const taken = () => new AuthError({ name: 'UsernameExistsException', message: 'User already exists' });

function steps(answers: Array<'created' | 'taken' | Error>, conflict: () => Promise<void> = async () => undefined) {
  const calls: string[] = [];
  return {
    calls,
    steps: {
      signUp: async () => {
        calls.push('signUp');
        const next = answers.shift();
        if (next === 'taken') throw taken();
        if (next instanceof Error) throw next;
        return { done: false };
      },
      reportConflict: async () => {
        calls.push('reportConflict');
        await conflict();
      },
    },
  };
}

describe('signing up whether or not the address is taken', () => {
  it('a new address: one sign-up, then the code step', async () => {
    const s = steps(['created']);
    expect(await signUpAnsweringAlike(s.steps)).toBe('confirm');
    expect(s.calls).toEqual(['signUp']);
  });

  it('an address held by an unconfirmed sign-up: reported, freed, and the second sign-up creates the account', async () => {
    const s = steps(['taken', 'created']);
    expect(await signUpAnsweringAlike(s.steps)).toBe('confirm');
    expect(s.calls).toEqual(['signUp', 'reportConflict', 'signUp']);
  });

  it("an account in use: the same code step (its owner gets our email), even when the report fails", async () => {
    const s = steps(['taken', 'taken'], async () => {
      throw new Error('429');
    });
    expect(await signUpAnsweringAlike(s.steps)).toBe('confirm');
    expect(s.calls).toEqual(['signUp', 'reportConflict', 'signUp']);
  });

  it('other refusals are the page\'s to show, never turned into the code step', async () => {
    const weak = new AuthError({ name: 'InvalidPasswordException', message: 'Password did not conform with policy: Password not long enough' });
    await expect(signUpAnsweringAlike(steps([weak]).steps)).rejects.toBe(weak);
    const waf = new AuthError({ name: 'ForbiddenException', message: 'Request not allowed due to WAF block.' });
    await expect(signUpAnsweringAlike(steps(['taken', waf]).steps)).rejects.toBe(waf);
  });
});
