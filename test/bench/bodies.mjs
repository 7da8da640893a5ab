// The answers the bench's service gives, as JSON text: the loopback server (server.mjs) sends them
// and the in-process bench (in-process.mjs) hands them to its fake dispatcher, so both measure the
// same exchange. A documented verify of a paid charge (about 400 bytes), a dispatch, a refund.
const json = (value) => JSON.stringify(value);

export const TRANSACTION = json({
  status: 'success',
  data: {
    reference: 'order_1042',
    amount: 500000,
    currency: 'NGN',
    fee: 10000,
    netAmount: 490000,
    status: 'SUCCESS',
    channel: 'wallet_push',
    customer: { handle: '@ada', phone: '+2348000000001', name: 'Ada Obi' },
    settlement: { status: 'SETTLED', settledAt: '2026-11-21T12:00:00Z' },
    paidAt: '2026-11-21T10:01:00Z',
  },
});

export const DISPATCH = json({
  status: 'success',
  message: 'Authorization prompt sent',
  data: {
    reference: 'order_1042',
    status: 'PENDING_AUTHORIZATION',
    authChannel: 'wallet_push',
    expiresAt: '2026-11-21T10:05:00Z',
  },
});

export const REFUND = json({
  status: 'success',
  message: 'Refund processed',
  data: {
    refundReference: 'rf_1',
    amount: 100000,
    currency: 'NGN',
    status: 'PROCESSED',
    refundedAt: '2026-11-21T13:00:00Z',
  },
});

export const NOT_FOUND = json({ status: 'error', message: 'Not found' });
