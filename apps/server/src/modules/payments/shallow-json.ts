import { AppError } from "../../errors.ts";

/** How deeply brackets nest in `text`, outside string literals; stops counting past `limit`. */
function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (char === 0x7d || char === 0x5d) {
      depth--;
    }
  }
  return deepest;
}

/** JSON.parse for provider callbacks, whose bodies are a few flat levels: a deeper body is refused
 * before it is parsed, so nothing recursive downstream (key sorting for a signature) can overflow. */
export function parseShallowJson(text: string, maxDepth: number): unknown {
  if (nestingDepth(text, maxDepth) > maxDepth) {
    throw new AppError(400, "Request body is nested too deeply.", "too_deep");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError(400, "Request body is not valid JSON.", "bad_json");
  }
}
