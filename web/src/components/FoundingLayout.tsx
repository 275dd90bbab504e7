import { PreLaunchLayout } from './PreLaunchLayout';

/** Founding-talent pages: the pre-launch layout with the founding-talent contact and legal links. */
export function FoundingLayout() {
  return <PreLaunchLayout area="founding-talent" />;
}
