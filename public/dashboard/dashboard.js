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
// A page showing work in progress (a repository sync) asks to be reloaded until it is done. The
// reload drops the notice of the action that started it ("its first sync is queued"), which the
// page would otherwise go on showing after the work is done.
const refresh = document.querySelector('[data-refresh-seconds]');
if (refresh) {
  setTimeout(() => {
    const url = new URL(window.location.href);
    url.searchParams.delete('notice');
    window.location.replace(url);
  }, Number(refresh.dataset.refreshSeconds) * 1000);
}

// The review queue's keyboard: j/k move between entries, x selects, p publishes, a archives, o opens.
// Publish/archive act on the selected entries, or on the current one when none is selected.
const queue = document.querySelector('form[data-review-queue]');
if (queue) {
  const rows = () => [...queue.querySelectorAll('tr[data-entry]')];
  let current = -1;
  const move = (to) => {
    const list = rows();
    if (!list.length) return;
    current = Math.max(0, Math.min(list.length - 1, to));
    list.forEach((row, i) => row.classList.toggle('current', i === current));
    list[current].scrollIntoView({ block: 'nearest' });
    list[current].querySelector('a')?.focus({ preventScroll: true });
  };
  const box = () => rows()[current]?.querySelector('input[name="ids"]');
  const act = (action) => {
    const scope = queue.querySelector('input[name="scope"]');
    if (!queue.querySelector('input[name="ids"]:checked') && !scope?.checked) {
      if (!box()) return;
      box().checked = true;
    }
    queue.requestSubmit(queue.querySelector(`button[name="action"][value="${action}"]`));
  };
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    const field = event.target.closest?.('input, select, textarea, [contenteditable]');
    if (field && field.type !== 'checkbox') return;
    const keys = {
      j: () => move(current + 1),
      k: () => move(current - 1),
      x: () => { if (box()) box().checked = !box().checked; },
      p: () => act('publish'),
      a: () => act('archive'),
      o: () => { const link = rows()[current]?.querySelector('a'); if (link) window.location.href = link.href; },
    };
    const run = keys[event.key];
    if (!run) return;
    event.preventDefault();
    run();
  });
  queue.querySelector('[data-select-page]')?.addEventListener('change', (event) => {
    for (const b of queue.querySelectorAll('input[name="ids"]')) b.checked = event.target.checked;
  });
  // Everything a filter matches is a bigger step than ticked rows: ask first.
  queue.addEventListener('submit', (event) => {
    const scope = queue.querySelector('input[name="scope"]');
    const action = event.submitter?.value;
    if (scope?.checked && action && !window.confirm(`${action[0].toUpperCase()}${action.slice(1)} all ${queue.dataset.matching} entries matching this filter?`)) {
      event.preventDefault();
    }
  });
}

// The releases screen: the header's box ticks every row of the page; all matching a filter asks first.
const bulkList = document.querySelector('form[data-bulk-list]');
if (bulkList) {
  bulkList.querySelector('[data-select-page]')?.addEventListener('change', (event) => {
    for (const b of bulkList.querySelectorAll('input[name="ids"]')) b.checked = event.target.checked;
  });
  bulkList.addEventListener('submit', (event) => {
    const scope = bulkList.querySelector('input[name="scope"]');
    const action = event.submitter?.value;
    if (scope?.checked && action && !window.confirm(`${action[0].toUpperCase()}${action.slice(1)} all ${bulkList.dataset.matching} release notes matching this filter?`)) {
      event.preventDefault();
    }
  });
}
