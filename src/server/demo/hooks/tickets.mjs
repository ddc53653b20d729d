// Hooks of the demo `tickets` app: titles are trimmed before they are stored, and a closed ticket
// must say why (a `resolution` in its `meta`).

export function before_create(event) {
  if (event.model === 'tickets.Ticket' && typeof event.data.title === 'string') event.data.title = event.data.title.trim();
}

export function before_update(event) {
  if (event.model !== 'tickets.Ticket') return;
  if (typeof event.data.title === 'string') event.data.title = event.data.title.trim();
  if (event.data.status === 'closed' && !(event.data.meta && typeof event.data.meta === 'object' && event.data.meta.resolution)) {
    event.reject('Closing a ticket needs meta.resolution', 'status');
  }
}
