/** Entry of the renderer: pick the platform (desktop bridge or browser), build services, render. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { createServices } from './app/create-services.ts';
import { createWorkbenchServices } from './app/workbench-services.ts';
import { detectPlatform } from './state/platform.ts';
import './app/app.css';

const services = createServices(detectPlatform());
const workbench = createWorkbenchServices(services);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App services={services} workbench={workbench} />
  </StrictMode>,
);
