import { waitlistWelcomeEmail } from '../../../functions/waitlist/emails/welcome';

describe('waitlist welcome email', () => {
  it('names the position and greets by first name', () => {
    const email = waitlistWelcomeEmail({ firstName: 'Ada', position: 17, siteUrl: 'https://humanly.example/' });
    expect(email.subject).toContain('#17');
    expect(email.text).toContain('Hi Ada,');
    expect(email.text).toContain('number 17');
    expect(email.html).toContain('https://humanly.example/founding-talent-application');
  });

  it('escapes what the person typed', () => {
    const email = waitlistWelcomeEmail({ firstName: '<script>x</script>', position: 1, siteUrl: 'https://h.example' });
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('&#60;script&#62;');
  });

  it('greets without a name when none was given', () => {
    expect(waitlistWelcomeEmail({ position: 3, siteUrl: 'https://h.example' }).text.startsWith('Hi there,')).toBe(true);
  });
});
