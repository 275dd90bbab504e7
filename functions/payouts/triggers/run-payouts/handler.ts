/** Consumer of `Royalties.MonthClosed` (declared; built shortly). */
export async function handler(): Promise<{ outcome: string }> {
  return { outcome: 'not-built' };
}
