// Public API of the grading engine. Everything here is pure library code: no database, no HTTP.

export * from './statuses.js';

export type * from './layout/types.js';
export { buildLayout, buildPersonalLayout, essayCellRect, studentPages } from './layout/build.js';
export { encodeCopy, decodeCopy } from './layout/qrPayload.js';
export { missingGlyphs } from './layout/font.js';
export { renderSheetPdf } from './render/pdf.js';
export { renderPageSvg } from './render/svg.js';
export { copiesFor, nameLine } from './render/copyText.js';

export { checkImageSize, decodeGray, ImageTooLarge, MAX_IMAGE_PIXELS, type GrayImage } from './image/gray.js';
export { checkPdf, pdfPageImages, PdfRefused, MAX_PDF_PAGES } from './image/pdf.js';
export { recognisePage, reviewFlagLabel } from './omr/recognise.js';
export type { ItemReading, PageReading, PageFailure, ReviewFlag, StudentReading, LayoutLookup } from './omr/recognise.js';

export { getOcr, OcrEngine, type OcrLine } from './ocr/engine.js';
export { readFillBoxes, readEssay, readShortAnswers, type FillBoxText, type EssayText, type ShortAnswerText } from './ocr/regions.js';

export { scoreSheet, scoreChoice, scoreFill, DEFAULT_MULTIPLE_RULE } from './score/score.js';
export type { AnswerKey, KeyItem, MultipleRule, ItemScore, SheetScore } from './score/score.js';
export { normaliseAnswer, normaliseJudge } from './score/normalise.js';

export { scoreEssay, type EssayResult } from './essay/index.js';
export { scoreEssayRubric, countChars, type RubricResult, type EssayOptions, type SentenceNote, type EssayFlag } from './essay/rubric.js';
export { llmConfigFromEnv, reviewWithLlm, type LlmConfig } from './essay/llm.js';

export { alignHomework, type HomeworkQuestion, type HomeworkReading } from './homework/align.js';
export { readHomeworkPhoto } from './homework/read.js';

export { gradeFiles, readPage, groupPages, expandInputs, scoreSubmission } from './pipeline.js';
export type { GradeOptions, GradeResult, InputFile, PageResult, ReadPage, Submission } from './pipeline.js';
