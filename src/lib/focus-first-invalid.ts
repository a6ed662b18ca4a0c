/**
 * #19 item 16: "All fields are mandatory!" marks the missing fields (aria-invalid) and takes the
 * user to the first of them. Called from a submit handler: the marks are rendered on the next
 * frame, so the focus waits for it.
 */
export function focusFirstInvalid(form: HTMLFormElement | null | undefined): void {
  if (!form) return;
  requestAnimationFrame(() => {
    form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });
}
