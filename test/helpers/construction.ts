import { expect } from 'vitest';
import { ValidationError, Wallet } from '@wallet/node';

/** The ValidationError `new Wallet(options)` throws; fails the test when it constructs instead. */
export function constructionError(options: ConstructorParameters<typeof Wallet>[0]): ValidationError {
  try {
    new Wallet(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected the constructor to throw');
}
