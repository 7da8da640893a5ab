/* global document, Element, sessionStorage, location, history, addEventListener */
// The docs site's search lands a guide on the section that holds the searched words: the words
// are kept when a guide is opened from the results, and the guide scrolls to the first heading
// (else the first paragraph) that contains them, putting its anchor in the address.
(function () {
  const KEY = 'wallet-docs-search';
  document.addEventListener(
    'click',
    (event) => {
      const link = event.target instanceof Element ? event.target.closest('#tsd-search-results a') : null;
      const input = document.getElementById('tsd-search-input');
      if (!link || !input) return;
      if (/\/documents\//.test(link.href)) sessionStorage.setItem(KEY, input.value);
      else sessionStorage.removeItem(KEY);
    },
    true,
  );

  const words = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  if (!words || location.hash || !/\/documents\//.test(location.pathname)) return;
  const wanted = words.trim().toLowerCase();
  const content = document.querySelector('.col-content');
  if (!content || !wanted) return;
  const holds = (element) => element.textContent.toLowerCase().includes(wanted);
  const heading = [...content.querySelectorAll('h2, h3, h4')].find(holds);
  const target = heading ?? [...content.querySelectorAll('p, li')].find(holds);
  if (!target) return;
  const anchor = heading && (heading.id || heading.querySelector('[id]')?.id);
  if (anchor) history.replaceState(null, '', `#${anchor}`);
  const show = () => target.scrollIntoView({ block: 'start' });
  // Now, and again once the page has loaded (images and the theme's layout can move it).
  show();
  if (document.readyState !== 'complete') addEventListener('load', show);
})();
