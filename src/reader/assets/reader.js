// Progressive enhancement for published pages: pages read fully without it. Adds a
// copy button to each code block.
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
