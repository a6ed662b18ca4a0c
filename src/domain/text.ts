/** Small text rules shared by the search language and the contracts. */

/** C0 controls and DEL: never typed into a search field, and NUL cannot be stored. */
export function isControlCharacter(char: string): boolean {
  const code = char.charCodeAt(0);
  return code <= 0x1f || code === 0x7f;
}

export function hasControlCharacter(text: string): boolean {
  for (const char of text) if (isControlCharacter(char)) return true;
  return false;
}

/** Two lists of texts alike, in order (the important messages an edit started from and those stored). */
export const sameTexts = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((text, index) => text === b[index]);
