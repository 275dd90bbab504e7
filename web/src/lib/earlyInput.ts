/**
 * What a visitor does to a prerendered page before the app has taken it over (hydrated), kept
 * for the app instead of lost:
 *
 * - A form submitted early would be the browser's own submit: a GET of this page with every field
 *   in the query string (an email address in the address bar and in the access logs). It is held,
 *   and submitted again once the app is ready, so the page's own handler runs.
 * - Fields typed, ticked or chosen early are in the page but not in the app's state (React keeps
 *   the typed text on screen when it hydrates, but its state starts from the build's empty
 *   values). Once ready, each changed field is announced to the app as if just edited.
 *
 * - A button pressed before the app's code has arrived (a menu, a carousel arrow) is pressed again
 *   once the app is ready. From the moment hydration starts React replays such clicks itself.
 * - Where the visitor has scrolled to: if the app moves the page while it takes it over (a
 *   scroll-to-top on mount), the visitor's position is put back.
 *
 * Installed by the tiny entry (main.tsx) as soon as the HTML is parsed. The app (start.tsx) sends
 * `APP_HYDRATING_EVENT` just before it hydrates and `APP_READY_EVENT` after its first commit, when
 * the page's handlers are attached; it also marks <html data-app-ready> then (tests wait for it).
 */
export const APP_HYDRATING_EVENT = 'app:hydrating';
export const APP_READY_EVENT = 'app:ready';

export function holdEarlyInput(): void {
  let held: { form: HTMLFormElement; submitter: HTMLElement | null } | undefined;
  let pressed: HTMLButtonElement | undefined;
  let hydrating = false;
  window.addEventListener(APP_HYDRATING_EVENT, () => (hydrating = true), { once: true });
  // Scroll events arrive a frame late, so one the app causes has not been seen when it is ready.
  let position: { left: number; top: number } | undefined;
  const track = () => (position = { left: window.scrollX, top: window.scrollY });
  window.addEventListener('scroll', track, { passive: true });
  const hold = (event: SubmitEvent) => {
    event.preventDefault();
    held = { form: event.target as HTMLFormElement, submitter: event.submitter };
  };
  // A submit button's click is held until ready (React, if already hydrating, would run the click's
  // handlers but the form's submit would be the browser's); any other button's only until React
  // is there to replay it.
  const holdClick = (event: MouseEvent) => {
    const button = event.target instanceof Element ? event.target.closest('button, input') : null;
    if (!(button instanceof HTMLButtonElement || button instanceof HTMLInputElement) || button.disabled) return;
    if (button.form && (button.type === 'submit' || button.type === 'image')) {
      event.preventDefault();
      held = { form: button.form, submitter: button };
    } else if (button instanceof HTMLButtonElement && button.type !== 'reset' && !hydrating) {
      pressed = button;
    }
  };
  document.addEventListener('submit', hold, true);
  document.addEventListener('click', holdClick, true);
  window.addEventListener(
    APP_READY_EVENT,
    () => {
      document.removeEventListener('submit', hold, true);
      document.removeEventListener('click', holdClick, true);
      window.removeEventListener('scroll', track);
      if (position && (window.scrollX !== position.left || window.scrollY !== position.top)) {
        window.scrollTo({ ...position, behavior: 'instant' });
      }
      for (const field of document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea')) {
        announceEarlyEdit(field);
      }
      // React applies the announced edits in a microtask; submit after them, so the handler sees them.
      const submit = held;
      const button = pressed;
      held = pressed = undefined;
      setTimeout(() => {
        if (submit?.form.isConnected) submit.form.requestSubmit(submit.submitter?.isConnected ? submit.submitter : null);
        else if (button?.isConnected) button.click();
      }, 0);
    },
    { once: true },
  );
}

/**
 * React notices an edit when the field's value differs from the one it last saw (its value
 * tracker, which it set from the page when hydrating). So: let it see the build's value, put the
 * visitor's back behind its back, and send the event React listens to for that kind of field.
 */
function announceEarlyEdit(field: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): void {
  if (field instanceof HTMLSelectElement) {
    if ([...field.options].some((o) => o.selected !== o.defaultSelected)) field.dispatchEvent(new Event('change', { bubbles: true }));
    return;
  }
  if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
    // A radio the visitor moved away from is announced by the one they chose.
    if (field.checked === field.defaultChecked || (field.type === 'radio' && !field.checked)) return;
    const checked = field.checked;
    field.checked = !checked; // through React's tracker
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked')!.set!.call(field, checked);
    field.dispatchEvent(new Event('click', { bubbles: true })); // a plain Event: no toggle, only React's onChange
    return;
  }
  if (field instanceof HTMLInputElement && ['file', 'submit', 'button', 'reset', 'image', 'hidden'].includes(field.type)) return;
  if (field.value === field.defaultValue) return;
  const value = field.value;
  const proto = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  field.value = field.defaultValue; // through React's tracker
  Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}
