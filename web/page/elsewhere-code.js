// The code blocks of the chapter "the same sinusoids elsewhere": NumPy or PyTorch
// that rebuilds what each section's plots show for the current settings
// (timestepSnippet, gridSnippet, codeSnippet at positions: web/lib), with a copy button.
import { codeSnippet, gridSnippet, timestepSnippet } from '../lib/index.js';
import { gridOptions, relativePositions, timestepOptions, timestepsOf } from '../model/elsewhere-data.js';
import './rope-lab.css';

/** Section id -> the snippet of its settings in `language`. */
const SNIPPETS = {
  timestep: (language, state) =>
    timestepSnippet(language, { ...timestepOptions(state), timesteps: timestepsOf(state.tsRange) }),
  grid: (language, state) => gridSnippet(language, gridOptions(state)),
  relative: (language, state) =>
    codeSnippet(language, { dModel: state.dModel, positions: relativePositions(state.relLength) }),
};

/** The code blocks in `document`; show(state, t) writes each for the state. */
export function createElsewhereCode(document) {
  const blocks = [...document.querySelectorAll('[data-code]')]
    .filter((root) => Object.hasOwn(SNIPPETS, root.dataset.code))
    .map((root) => {
      const id = root.dataset.code;
      const language = root.querySelector(`#${id}-code-language`);
      const code = root.querySelector(`#${id}-code-text`);
      const copied = root.querySelector(`#${id}-code-copied`);
      let state = null;
      let t = null;
      const write = () => {
        if (!state) return;
        try {
          code.textContent = SNIPPETS[id](language.value, state);
        } catch (error) {
          code.textContent = `# ${t('elsewhereCode.failed', String(error?.message ?? error))}`;
        }
      };
      language.addEventListener('change', write);
      root.querySelector(`#${id}-code-copy`).addEventListener('click', async () => {
        await navigator.clipboard?.writeText(code.textContent);
        copied.textContent = t('elsewhereCode.copied');
      });
      return {
        show(nextState, translate) {
          if (nextState === state && translate === t) return;
          state = nextState;
          t = translate;
          copied.textContent = '';
          write();
        },
      };
    });
  return {
    show(state, t) {
      for (const block of blocks) block.show(state, t);
    },
  };
}
