/**
 * The "/" key jumps to the search box (the hint under it says so), as an inline script in the layout:
 * a React effect only listens once the page has hydrated, and a "/" pressed before that landed in the
 * home page's autofocused box as text.
 *
 * It listens on `window`, in the capture phase, so that it hears the key before anything else. React
 * listens on the document (Next hydrates the whole document), and while the part of the page a key
 * is aimed at has not hydrated yet (its code still loading: seconds on a busy machine), React's
 * capture listener stops that keydown's propagation, to replay it once hydrated. A listener on the
 * document then never heard the "/", and the browser typed it into the focused box.
 *
 * Rules: in the search box itself, "/" types only when the box holds text (an empty box is where "/"
 * already took you); in any other field it types; anywhere else it moves to the search box, caret at
 * the end, and types nothing. While a results page streams in, its box is still hidden: the box is
 * focused as soon as it shows (unless the reader has moved on).
 */
function onSlash(e: KeyboardEvent): void {
  if (e.key !== '/' || e.metaKey || e.ctrlKey || e.altKey || e.defaultPrevented) return;
  // The visible box: while the page streams in, React parks the next content in a hidden <div>.
  const visibleBox = () =>
    Array.from(document.querySelectorAll<HTMLInputElement>('form[role="search"] input[name="q"]')).find((b) => !b.closest('[hidden]'));
  const focus = (b: HTMLInputElement) => {
    b.focus();
    b.setSelectionRange(b.value.length, b.value.length);
  };
  const t = e.target as HTMLElement | null;
  const box = visibleBox();
  if (box && t === box) {
    if (box.value === '') e.preventDefault();
    return;
  }
  if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
  e.preventDefault();
  if (box) return focus(box);
  const from = document.activeElement;
  const until = Date.now() + 10000;
  const wait = () => {
    if (document.activeElement !== from || Date.now() > until) return;
    const shown = visibleBox();
    if (shown) focus(shown);
    else requestAnimationFrame(wait);
  };
  requestAnimationFrame(wait);
}

/** The script's text: the function above, registered on the window for the capture phase (plain ES2017, no imports). */
export const SLASH_KEY_SCRIPT = `window.addEventListener('keydown', ${onSlash.toString()}, true);`;
