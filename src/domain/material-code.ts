/**
 * #19 item 25: "Add code …" is for a material code the catalogue did not answer, not for a
 * word of a description ("door"). A code is one word of letters, digits and - _ . / with at
 * least one digit (both ERP families: KM + 6 digits, 8 digits), at most 40 characters (§3).
 */
const CODE = /^[A-Z0-9][A-Z0-9._/-]{1,39}$/;

export function isMaterialCodeLike(term: string): boolean {
  const code = term.trim().toUpperCase();
  return CODE.test(code) && /\d/.test(code);
}
