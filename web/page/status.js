// The loading line under the controls and its retry button. What it says is
// kept as a key and its arguments, so that a language switch rewords it.

/** `element`: the status line; `retryButton`; `translate()`: the translator of the moment. */
export function createStatus(element, retryButton, translate) {
  let said = null;
  return {
    /** state: 'loading' | 'slow' | 'error' | 'ready' (hidden); the retry button shows when slow or failed. */
    say(state, key, ...args) {
      said = key && { key, args };
      element.dataset.state = state;
      element.hidden = key === null;
      if (key) element.textContent = translate()(key, ...args);
      retryButton.hidden = state !== 'slow' && state !== 'error';
      // An alert for what needs the reader's action; the progress itself is a polite status.
      element.setAttribute('role', state === 'error' ? 'alert' : 'status');
    },
    /** Adds the library's reason (it names the file and what failed) to what the line says. */
    detail(detail) {
      said.detail = detail;
      element.textContent += ` ${translate()('page.detail', detail)}`;
    },
    /** Says the same again in the language of the moment. */
    reword() {
      if (!said) return;
      const t = translate();
      element.textContent = t(said.key, ...said.args);
      if (said.detail) element.textContent += ` ${t('page.detail', said.detail)}`;
    },
  };
}
