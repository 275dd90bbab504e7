/** A talent's exclusive contract (frozen likeness): record one, see it, end it (docs/royalties.md#frozen-likeness). */
export function FreezeSection(_props: { talentId: string }) {
  return null;
}
