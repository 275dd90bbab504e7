import { NotFoundContent } from '../components/NotFoundContent';

export function NotFoundPage() {
  return <NotFoundContent />;
}
