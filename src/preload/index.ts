/** The preload: exposes the typed bridge as `window.jql` in the isolated world, nothing more. */
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge.ts';

contextBridge.exposeInMainWorld('jql', createBridge(ipcRenderer));
