export { mapCitations, renderContext } from './citations';
export { extractiveAnswer } from './extractive';
export { baseLanguage, guessLanguage, languageName } from './text';
export type { AnswerSource, Passage } from './types';
export { createCitationStream, withoutMarkers } from './citation-stream';
