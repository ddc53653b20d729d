export { bridgeCloneClient, routeCloneClient, type CloneClient } from './clone-client.ts';
export { readCloneStatus } from './clone-status.ts';
export { ReproduceDialog } from './ReproduceDialog.tsx';
export { reproduceRequest } from './reproduce-request.ts';
