// Global styles first, so component stylesheets (imported by the pages below) come later in the cascade.
import './styles/tokens.css';
import './styles/base.css';
import './styles/startup.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { BRAND_NAME } from './brand';
import { ToastProvider } from './components/Toast';
import { ConfigContext, loadConfig } from './config';
import { createAppRouter } from './routes';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
const root = createRoot(container);

function StartupError({ onRetry }: { onRetry: () => void }) {
  return (
    <main className="startup-error">
      <h1>{BRAND_NAME} could not start</h1>
      <p>We could not load the site's settings. Check your connection and try again.</p>
      <button type="button" className="button button--primary" onClick={onRetry}>
        Try again
      </button>
    </main>
  );
}

function start() {
  loadConfig().then(
    (config) => {
      const router = createAppRouter();
      root.render(
        <StrictMode>
          <ConfigContext value={config}>
            <ToastProvider>
              <RouterProvider router={router} />
            </ToastProvider>
          </ConfigContext>
        </StrictMode>,
      );
    },
    (err: unknown) => {
      console.error('Failed to load /config.json', err);
      root.render(<StartupError onRetry={start} />);
    },
  );
}

start();
