// The page's parts that come after the first view (the later chapters, the
// check tool, the embed tools, the later chapters' typeset formulas): each is
// loaded once, when one of its elements nears the screen or when asked (a
// click, the idle time after the first view). A failed load (offline) is
// reported and tried again at the next ask.
import { loadOnce } from './load-once.js';

/**
 * A function that loads the part (`load`: a promise) and resolves once it is
 * loaded or has failed; `near`: elements whose nearing the screen loads it.
 */
export function lazyPart(load, { near = [] } = {}) {
  const loadPart = loadOnce(load);
  const observer =
    near.length > 0
      ? new IntersectionObserver(
          (entries) => {
            if (entries.some((entry) => entry.isIntersecting)) ask();
          },
          { rootMargin: '100% 0px' },
        )
      : null;
  function ask() {
    return loadPart().then(
      () => observer?.disconnect(),
      (error) => console.error(error),
    );
  }
  for (const element of near) observer.observe(element);
  return ask;
}
