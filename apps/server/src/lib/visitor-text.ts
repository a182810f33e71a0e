import { VISITOR_TEXT_MAX, WIDGET_ERRORS } from '@omnibot/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';

/** A visitor text over the limit is 413 before the body schema answers a generic 400. */
export async function refuseLongText(request: FastifyRequest) {
  const body: unknown = request.body;
  if (body === null || typeof body !== 'object' || !('text' in body)) return;
  const { text } = body;
  if (typeof text === 'string' && text.length > VISITOR_TEXT_MAX) {
    throw new AppError(
      413,
      'widget/text-too-long',
      `${WIDGET_ERRORS['widget/text-too-long']} At most ${VISITOR_TEXT_MAX} characters.`,
    );
  }
}
