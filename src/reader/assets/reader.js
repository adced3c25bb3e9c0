// Progressive enhancement for published pages: pages read fully without it. Adds a
// copy button to each code block, instant search results, and draws diagrams.
document.querySelectorAll('figure.code pre').forEach((pre) => {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = 'Copy';
  button.setAttribute('aria-label', 'Copy the code');
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(pre.innerText).then(
      () => {
        button.textContent = 'Copied';
        setTimeout(() => (button.textContent = 'Copy'), 1500);
      },
      () => (button.textContent = 'Select and copy'),
    );
  });
  pre.parentElement.insertBefore(button, pre);
});

// Diagrams: drawn by the mermaid module the instance names (QUIRE_MERMAID_URL), else left as their source.
const mermaidUrl = document.querySelector('meta[name="quire-mermaid"]')?.getAttribute('content');
if (mermaidUrl && document.querySelector('pre.mermaid')) {
  import(mermaidUrl).then(
    ({ default: mermaid }) => {
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'default' });
      return mermaid.run({ querySelector: 'pre.mermaid' });
    },
    () => {},
  );
}

// Instant search: as the reader types, the site's own search page is fetched and its
// results shown under the box; Enter still opens the full page.
document.querySelectorAll('form.search').forEach((form) => {
  const input = form.querySelector('input[name="q"]');
  const results = document.createElement('div');
  results.className = 'instant-results';
  results.setAttribute('aria-live', 'polite');
  form.append(results);
  let timer;
  let latest = 0;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    const query = input.value.trim();
    if (!query) {
      results.replaceChildren();
      return;
    }
    timer = setTimeout(() => {
      const asked = ++latest;
      fetch(`${form.action}?q=${encodeURIComponent(query)}`, { headers: { accept: 'text/html' } })
        .then((response) => response.text())
        .then((html) => {
          if (asked !== latest) return;
          const found = new DOMParser().parseFromString(html, 'text/html').querySelector('main ol');
          const list = found ? document.importNode(found, true) : document.createElement('p');
          if (!found) list.textContent = 'Nothing matches.';
          results.replaceChildren(list);
        })
        .catch(() => results.replaceChildren());
    }, 200);
  });
});

// The site's integrations may set cookies once the reader agrees: their scripts read the
// answer from GitBook's cookie, kept a year; the page reloads so that they start with it.
const cookieNotice = document.querySelector('aside.cookie-notice');
if (cookieNotice && !/(^|;\s*)__gitbook_cookie_granted=(yes|no)(;|$)/.test(document.cookie)) {
  cookieNotice.hidden = false;
  cookieNotice.querySelectorAll('button[data-cookies]').forEach((button) => {
    button.addEventListener('click', () => {
      const secure = location.protocol === 'https:' ? '; Secure' : '';
      document.cookie = `__gitbook_cookie_granted=${button.dataset.cookies}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
      location.reload();
    });
  });
}
