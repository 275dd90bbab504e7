/**
 * The email and password of a sign-up waiting for its code, kept in memory only (never stored),
 * so the confirmation step can sign the person in without asking again. Lost on a reload: the
 * confirmation step then sends the person to sign in.
 */
let pending: { email: string; password: string } | undefined;

export function rememberSignUp(email: string, password: string): void {
  pending = { email, password };
}

/** The password for this email, once. */
export function takeSignUpPassword(email: string): string | undefined {
  if (!pending || pending.email !== email) return undefined;
  const { password } = pending;
  pending = undefined;
  return password;
}
