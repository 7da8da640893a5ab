// The merchant's application code, as it is in production: it knows nothing about tests.
// #region app-wallet
import { Wallet } from '@wallet/node';

// Key, base URL and (in tests) WALLET_TRANSPORT=fetch come from the environment.
export const wallet = new Wallet();
// #endregion app-wallet
