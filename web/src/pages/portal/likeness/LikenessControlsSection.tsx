import type { Likeness } from '../../../../../events/accounts';
import type { SignedIn } from '../PortalGate';

/** Pause, removal with notice, the exclusive contract's explanation and the data export (docs/royalties.md#likeness). */
export function LikenessControlsSection(_props: { auth: SignedIn; likeness: Likeness }) {
  return null;
}
