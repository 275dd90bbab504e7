import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CONSOLE_TITLE } from './brand';
import { loadConfig } from './config';
import { configureAuth } from './amplify';
import { App } from './App';

const root = createRoot(document.getElementById('root')!);
document.title = CONSOLE_TITLE;

// Amplify must know the user pool before react-admin's first checkAuth, so the console
// renders only once /config.json has loaded.
loadConfig()
  .then((config) => {
    configureAuth(config);
    root.render(
      <StrictMode>
        <App config={config} />
      </StrictMode>,
    );
  })
  .catch((error: unknown) => {
    console.error(error);
    root.render(
      <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 560, margin: '4em auto', padding: '0 1em' }}>
        <h1>{CONSOLE_TITLE}</h1>
        <p role="alert">
          The console could not load its configuration (/config.json). Reload the page, or ask an administrator to
          check the deployment.
        </p>
      </main>,
    );
  });
