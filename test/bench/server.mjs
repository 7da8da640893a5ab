// The loopback service every client in the bench talks to, in its own process so that its CPU is
// never counted as a client's. It answers the documented envelopes with fixed bodies (a verify is
// about the reference asked), counts the sockets clients open, and delays a verify whose reference
// starts with `slow_` (for heap in flight).
// Started by the bench with fork(); reports its port, then answers { cmd: 'stats' | 'reset' }.
import http from 'node:http';

import { DISPATCH, NOT_FOUND, REFUND, TRANSACTION } from './bodies.mjs';

const VERIFY = '/v1/charges/verify/';

// An answer is about the reference asked (the SDK refuses any other: reference_mismatch); the
// per-call benches ask for order_1042 and get the fixed body as it is.
const ASKED = JSON.stringify('order_1042');
function about(reference) {
  return reference === 'order_1042'
    ? TRANSACTION
    : TRANSACTION.replace(ASKED, JSON.stringify(decodeURIComponent(reference)));
}

let open = 0;
let peak = 0;
let opened = 0;

function answer(req, res) {
  const url = req.url ?? '';
  let body = NOT_FOUND;
  let status = 200;
  if (req.method === 'GET' && url.startsWith(VERIFY)) body = about(url.slice(VERIFY.length));
  else if (req.method === 'POST' && url === '/v1/charges/dispatch') body = DISPATCH;
  else if (req.method === 'POST' && url === '/v1/refunds') body = REFUND;
  else status = 404;
  const send = () => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const slow = url.startsWith(`${VERIFY}slow_`) ? Number(url.slice(VERIFY.length + 5)) : 0;
  if (slow > 0) setTimeout(send, slow);
  else send();
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET') return answer(req, res);
  req.resume();
  req.on('end', () => answer(req, res));
});
server.keepAliveTimeout = 60_000;
server.headersTimeout = 61_000;
server.maxRequestsPerSocket = 0;
server.on('connection', (socket) => {
  opened++;
  peak = Math.max(peak, ++open);
  socket.on('close', () => open--);
});
process.on('message', (message) => {
  if (message.cmd === 'reset') {
    opened = 0;
    peak = open;
  }
  process.send({ cmd: message.cmd, opened, open, peak });
});
process.on('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
