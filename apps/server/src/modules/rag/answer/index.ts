export { mapCitations, renderContext, type MappedCitations, type RenderedContext } from './citations';
export {
  extractiveAnswer,
  shortenSentence,
  type ExtractiveAnswer,
  type ExtractiveCitation,
  type ExtractiveInput,
} from './extractive';
export { baseLanguage, guessLanguage, languageName, splitSentences, terms } from './text';
export type { AnswerSource, Passage } from './types';
export { createCitationStream, withoutMarkers, type CitationStream } from './citation-stream';
