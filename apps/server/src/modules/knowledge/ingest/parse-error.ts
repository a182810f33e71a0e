import { AppError } from '../../../lib/errors';

export type ParseErrorCode =
  'parse/corrupt' | 'parse/encrypted' | 'parse/unsupported-type' | 'parse/empty' | 'parse/too-large';

const statusOf: Record<ParseErrorCode, number> = {
  'parse/corrupt': 422,
  'parse/encrypted': 422,
  'parse/unsupported-type': 415,
  'parse/empty': 422,
  'parse/too-large': 413,
};

/** A document that cannot be turned into text; the message tells the uploader what to do in plain words. */
export class ParseError extends AppError {
  declare readonly code: ParseErrorCode;

  constructor(code: ParseErrorCode, message: string) {
    super(statusOf[code], code, message);
    this.name = 'ParseError';
  }
}
