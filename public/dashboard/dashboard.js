// Progressive enhancement only: every page works without this script.
document.addEventListener('click', async (event) => {
  const copy = event.target.closest('[data-copy]');
  if (copy) {
    const field = document.getElementById(copy.dataset.copy);
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      field.select();
      document.execCommand('copy');
    }
    copy.textContent = 'Copied';
    setTimeout(() => { copy.textContent = 'Copy'; }, 2000);
  }
});
document.addEventListener('submit', (event) => {
  const message = event.submitter?.dataset.confirm ?? event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});
// A page showing work in progress (a repository sync) asks to be reloaded until it is done.
const refresh = document.querySelector('[data-refresh-seconds]');
if (refresh) setTimeout(() => window.location.reload(), Number(refresh.dataset.refreshSeconds) * 1000);
