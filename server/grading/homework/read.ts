import { decodeGray, ImageTooLarge, type GrayImage } from '../image/gray.js';
import { getOcr } from '../ocr/engine.js';
import { alignHomework, type HomeworkQuestion, type HomeworkReading } from './align.js';

/** Reads a homework photo (JPEG/PNG) and attaches its lines to the assignment's questions. */
export async function readHomeworkPhoto(image: Uint8Array, questions: HomeworkQuestion[]): Promise<HomeworkReading> {
  let gray: GrayImage;
  try {
    gray = await decodeGray(image);
  } catch (error) {
    if (error instanceof ImageTooLarge) throw error;
    throw new Error('无法解码图片，请上传 JPG 或 PNG 照片');
  }
  const ocr = await getOcr();
  return alignHomework(await ocr.read(gray), questions);
}
