import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';

/** The embedding page's origin from the iframe URL, when it is a plain http(s) origin. */
function hostOriginOf(value: string | null): string | null {
  if (value === null || !URL.canParse(value)) return null;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value ? value : null;
}

const params = new URLSearchParams(window.location.search);
const root = document.getElementById('root');
if (root !== null) {
  createRoot(root).render(
    <StrictMode>
      <App
        apiBase={window.location.origin}
        botId={params.get('bot') ?? ''}
        // Opened on its own (not in a frame) there is no loader to talk to.
        hostOrigin={window.parent === window ? null : hostOriginOf(params.get('host'))}
        preview={params.get('preview') === '1'}
      />
    </StrictMode>,
  );
}
