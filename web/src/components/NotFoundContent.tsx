import { Link } from 'react-router';
import { Icon } from './Icon';
import { usePageTitle } from '../lib/usePageTitle';
import './NotFoundContent.css';

/** The 404 body; also shown by /thank-you when its type is missing or unknown. */
export function NotFoundContent() {
  usePageTitle('Page not found');
  return (
    <div className="container not-found" data-testid="not-found">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1>Oops! Page not found</h1>
      <p className="lead">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className="button button--primary">
        <Icon name="home" size={18} /> Return to Home
      </Link>
    </div>
  );
}
