// toolgate review page: the live queue (EventSource on /v1/events), the five-option dialog and its keys, the history.
import { commandEl, el, fillTimes, headRowEl, historyItemEl, itemEl, metaEl, subject } from './render.js';
var CHOICES = { 1: 'allow_once', 2: 'allow_session', 3: 'allow_always', 4: 'deny', 5: 'deny_with_feedback' };
// After the selection moves by itself (an answer, a new arrival), number keys wait a moment, so a key
// pressed for one request never answers the next one.
var SETTLE_MS = 350;
var HISTORY_SIZE = 30;
var csrf = document.querySelector('meta[name="csrf-token"]').getAttribute('content');
var $ = function (id) {
  return document.getElementById(id);
};
var queueEl = $('queue'),
  dialog = $('dialog'),
  detail = $('detail'),
  msg = $('msg'),
  conn = $('conn');
var optionButtons = Array.prototype.slice.call(document.querySelectorAll('.opt'));
var ruleInput = $('rule'),
  feedbackInput = $('feedback');

var pending = []; // approvals, oldest first
var hiddenCount = 0; // older pending approvals the server left out of the list (the newest are shown)
var history = []; // answered approvals, newest first
var finished = {}; // ids seen terminal: never shown as pending again
var selectedId = null;
var highlighted = 1;
var mode = 'options'; // options | rule | feedback
var armedAt = 0;
var busy = false;

// Screen readers hear arrivals and answers without moving focus.
function announce(text) {
  $('announce').textContent = text;
}

function find(id) {
  for (var i = 0; i < pending.length; i++) if (pending[i].id === id) return i;
  return -1;
}
function selected() {
  var i = find(selectedId);
  return i >= 0 ? pending[i] : null;
}

function renderQueue() {
  var focusedId = document.activeElement && document.activeElement.getAttribute('data-approval-id');
  queueEl.textContent = '';
  pending.forEach(function (a) {
    var li = itemEl(a);
    li.setAttribute('aria-selected', a.id === selectedId ? 'true' : 'false');
    queueEl.appendChild(li);
  });
  $('count').textContent = pending.length ? '(' + pending.length + ')' : '';
  $('empty').hidden = pending.length > 0;
  $('hidden-note').hidden = hiddenCount === 0;
  $('hidden-note').textContent = hiddenCount
    ? hiddenCount +
      ' older pending approval' +
      (hiddenCount === 1 ? ' is' : 's are') +
      ' not shown: answer some of these, or use toolgate approvals list.'
    : '';
  if (focusedId) focusItem(focusedId);
}

function focusItem(id) {
  var li = queueEl.querySelector('[data-approval-id="' + CSS.escape(id) + '"]');
  if (li && document.activeElement !== li) li.focus();
}

function renderDialog() {
  var a = selected();
  dialog.hidden = !a;
  if (!a) return;
  detail.textContent = '';
  detail.appendChild(headRowEl(a));
  detail.appendChild(commandEl(a));
  detail.appendChild(el('p', 'reason', a.reason));
  if (a.findings && a.findings.length) {
    var ul = el('ul', 'findings');
    a.findings.forEach(function (f) {
      ul.appendChild(el('li', '', f.risk + ': ' + f.reason + (f.command ? ' — ' + f.command : '')));
    });
    detail.appendChild(ul);
  }
  detail.appendChild(metaEl(a));
  // Ask rules come before allow rules: an "always allow" rule would not stop an ask rule asking (docs/rules.md).
  var askedByRule = a.source === 'rule';
  $('rule-text').textContent = askedByRule
    ? '(an ask rule asked: it is checked before allow rules)'
    : a.suggested_pattern || '(you write the rule)';
  optionButtons[2].disabled = askedByRule;
  $('grant-text').textContent = a.session_id
    ? a.suggested_pattern
      ? a.suggested_pattern + ' in session ' + a.session_id
      : ''
    : '(no session)';
  optionButtons[1].disabled = !a.session_id || !a.suggested_pattern;
  renderOptions();
}

function renderOptions() {
  optionButtons.forEach(function (b, i) {
    var on = i + 1 === highlighted;
    b.classList.toggle('hl', on);
    b.setAttribute('aria-current', on ? 'true' : 'false');
  });
  $('rule-edit').hidden = mode !== 'rule';
  $('feedback-edit').hidden = mode !== 'feedback';
  dialog.setAttribute('data-mode', mode);
}

// Moves the selection. `byUser`: the reviewer chose it, so keys act at once; otherwise they settle first.
function select(id, byUser) {
  if (id === selectedId) return;
  selectedId = id;
  highlighted = 1;
  setMode('options');
  msg.textContent = '';
  if (byUser) armedAt = 0;
  else disarm();
  Array.prototype.forEach.call(queueEl.children, function (li) {
    li.setAttribute('aria-selected', li.getAttribute('data-approval-id') === id ? 'true' : 'false');
  });
  renderDialog();
}

function disarm() {
  armedAt = Date.now() + SETTLE_MS;
  dialog.setAttribute('data-armed', 'false');
  setTimeout(function () {
    if (Date.now() >= armedAt) dialog.setAttribute('data-armed', 'true');
  }, SETTLE_MS + 10);
}
function armed() {
  return Date.now() >= armedAt && !busy;
}

function ensureSelection() {
  if (selected()) return;
  var next = pending[Math.min(lastIndex, pending.length - 1)] || pending[0];
  select(next ? next.id : null, false);
  if (next && (document.activeElement === document.body || !document.activeElement)) focusItem(next.id);
}
var lastIndex = 0;

function setPending(list) {
  pending = list.filter(function (a) {
    return a.status === 'pending' && !finished[a.id];
  });
  pending.sort(function (x, y) {
    return Date.parse(x.created_at) - Date.parse(y.created_at);
  });
  renderQueue();
  ensureSelection();
  if (selected()) renderDialog();
}

var arrivedDuringLoad = null; // ids announced while a snapshot is in flight, so the snapshot cannot hide them
function added(a) {
  if (arrivedDuringLoad) arrivedDuringLoad[a.id] = true;
  if (a.status !== 'pending' || finished[a.id] || find(a.id) >= 0) return;
  announce('New ' + (a.risk || 'unknown') + ' risk request: ' + a.tool + ' ' + subject(a));
  pending.push(a);
  setPending(pending);
}

function answered(a) {
  finished[a.id] = true;
  var i = find(a.id);
  if (i >= 0) {
    if (a.id === selectedId) lastIndex = i;
    pending.splice(i, 1);
    renderQueue();
    ensureSelection();
  }
  announce(a.tool + ' ' + subject(a) + ': ' + a.status + (a.resolved_by ? ' by ' + a.resolved_by : ''));
  history = history.filter(function (h) {
    return h.id !== a.id;
  });
  history.unshift(a);
  history.length = Math.min(history.length, HISTORY_SIZE);
  renderHistory();
}

function renderHistory() {
  var ol = $('history');
  ol.textContent = '';
  history.forEach(function (a) {
    ol.appendChild(historyItemEl(a));
  });
  $('history-empty').hidden = history.length > 0;
}

function setMode(m) {
  mode = m;
  renderOptions();
  if (m === 'rule') {
    var a = selected();
    ruleInput.value = (a && a.suggested_pattern) || '';
    ruleInput.focus();
    ruleInput.setSelectionRange(ruleInput.value.length, ruleInput.value.length);
    previewRule();
  } else if (m === 'feedback') {
    feedbackInput.value = '';
    feedbackInput.focus();
  }
}

function backToOptions() {
  setMode('options');
  if (selectedId) focusItem(selectedId);
}

function choose(n) {
  var a = selected();
  if (!a || !armed()) return;
  highlighted = n;
  renderOptions();
  if (n === 2 && optionButtons[1].disabled) {
    msg.textContent = 'This call has no session (or no pattern) to allow for.';
    return;
  }
  if (n === 3 && optionButtons[2].disabled) {
    msg.textContent =
      'An ask rule asked for this call; ask rules are checked before allow rules, so a saved allow rule would not stop it asking.';
    return;
  }
  if (n === 3) return setMode('rule');
  if (n === 5) return setMode('feedback');
  var body = { choice: CHOICES[n] };
  if (n === 2) body.rule_pattern = a.suggested_pattern;
  resolve(a, body);
}

function resolve(a, body) {
  busy = true;
  msg.textContent = '';
  api('/v1/approvals/' + encodeURIComponent(a.id) + '/resolve', { method: 'POST', body: JSON.stringify(body) })
    .then(function (res) {
      return res.json().then(function (data) {
        if (res.ok) return answered(data);
        if (res.status === 409) {
          msg.textContent = data.detail || 'Already answered.';
          return api('/v1/approvals/' + encodeURIComponent(a.id)).then(function (r) {
            return r.ok ? r.json().then(answered) : null;
          });
        }
        msg.textContent = data.detail || 'The answer was refused (' + res.status + ').';
      });
    })
    .catch(function () {
      msg.textContent = 'Could not reach toolgate; the answer was not sent.';
    })
    .then(function () {
      busy = false;
    });
}

function api(path, init) {
  init = init || {};
  var headers = { accept: 'application/json' };
  if (init.method && init.method !== 'GET') {
    headers['content-type'] = 'application/json';
    headers['x-csrf-token'] = csrf;
  }
  init.headers = headers;
  init.credentials = 'same-origin';
  return fetch(path, init).then(function (res) {
    if (res.status === 401) {
      location.assign('/review');
      throw new Error('signed out');
    }
    return res;
  });
}

function moveItem(delta) {
  if (!pending.length) return;
  var i = find(selectedId);
  var next = pending[(i + delta + pending.length) % pending.length];
  select(next.id, true);
  focusItem(next.id);
}

function isTextField(t) {
  return t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT');
}

document.addEventListener('keydown', function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey || isTextField(e.target)) return;
  if (mode !== 'options') {
    if (e.key === 'Escape') {
      e.preventDefault();
      backToOptions();
    }
    return;
  }
  var t = e.target;
  // Links and buttons outside the dialog keep their own Enter/Space (sign-out, audit log).
  var foreign = t && (t.tagName === 'A' || t.tagName === 'BUTTON') && !dialog.contains(t);
  if (foreign && (e.key === 'Enter' || e.key === ' ')) return;
  if (!selected()) return;
  var k = e.key;
  if (k === 'ArrowDown' || k === 'ArrowUp') {
    highlighted = ((highlighted + (k === 'ArrowDown' ? 0 : 3)) % 5) + 1;
    renderOptions();
  } else if (/^[1-5]$/.test(k)) choose(Number(k));
  else if (k === 'Enter') choose(highlighted);
  else if (k === 'Escape') choose(4);
  else if (k === 'j') moveItem(1);
  else if (k === 'k') moveItem(-1);
  else return;
  e.preventDefault();
});

ruleInput.addEventListener('keydown', function (e) {
  if (e.key === 'Enter') {
    e.preventDefault();
    saveRule();
  } else if (e.key === 'Escape') {
    e.preventDefault();
    backToOptions();
  }
});
feedbackInput.addEventListener('keydown', function (e) {
  if (e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault();
    sendFeedback();
  } else if (e.key === 'Escape') {
    e.preventDefault();
    backToOptions();
  }
});
// What the rule would have changed in the last 30 days, replayed from the audit log by the sidecar.
var previewTimer = null;
var previewSeq = 0;
function previewRule() {
  clearTimeout(previewTimer);
  var out = $('rule-preview');
  var pattern = ruleInput.value.trim();
  if (!pattern) {
    out.textContent = '';
    return;
  }
  out.textContent = 'Replaying the audit log…';
  var seq = ++previewSeq;
  previewTimer = setTimeout(function () {
    api('/v1/rules/preview', {
      method: 'POST',
      body: JSON.stringify({ pattern: pattern, effect: 'allow', since: '30d' }),
    })
      .then(function (res) {
        return res.ok
          ? res.json()
          : res.json().then(function (p) {
              throw new Error(p.detail || 'preview failed');
            });
      })
      .then(function (p) {
        if (seq === previewSeq) out.textContent = 'Last 30 days: ' + p.summary;
      })
      .catch(function (e) {
        if (seq === previewSeq) out.textContent = e.message === 'signed out' ? '' : 'Preview: ' + e.message;
      });
  }, 250);
}
ruleInput.addEventListener('input', previewRule);

function saveRule() {
  var a = selected();
  var pattern = ruleInput.value.trim();
  if (!a || busy) return;
  if (!pattern) {
    msg.textContent = 'Write the rule to save first.';
    return;
  }
  resolve(a, { choice: 'allow_always', rule_pattern: pattern });
}
function sendFeedback() {
  var a = selected();
  if (!a || busy) return;
  if (!feedbackInput.value.trim()) {
    msg.textContent = 'Type the feedback for the agent first.';
    return;
  }
  resolve(a, { choice: 'deny_with_feedback', feedback: feedbackInput.value });
}
$('rule-save').addEventListener('click', saveRule);
$('feedback-send').addEventListener('click', sendFeedback);
$('rule-cancel').addEventListener('click', backToOptions);
$('feedback-cancel').addEventListener('click', backToOptions);

optionButtons.forEach(function (b, i) {
  // A pointer click is aimed at what is on screen, so it needs no settling; Space on a focused option clicks too.
  b.addEventListener('click', function (e) {
    if (e.detail !== 0) armedAt = 0;
    choose(i + 1);
  });
  b.addEventListener('focus', function () {
    highlighted = i + 1;
    renderOptions();
  });
});
queueEl.addEventListener('click', function (e) {
  var li = e.target.closest('[data-approval-id]');
  if (li) select(li.getAttribute('data-approval-id'), true);
});
queueEl.addEventListener('focusin', function (e) {
  var li = e.target.closest('[data-approval-id]');
  if (li) select(li.getAttribute('data-approval-id'), true);
});

function load() {
  arrivedDuringLoad = {};
  return Promise.all([
    api('/v1/approvals?status=pending&limit=1000').then(function (r) {
      return r.json();
    }),
    api('/v1/approvals?limit=' + HISTORY_SIZE * 3).then(function (r) {
      return r.json();
    }),
  ]).then(
    function (lists) {
      var done = (lists[1].approvals || []).filter(function (a) {
        return a.status !== 'pending';
      });
      done.forEach(function (a) {
        finished[a.id] = true;
      });
      var fresh = pending.filter(function (a) {
        return arrivedDuringLoad[a.id];
      });
      var snapshot = lists[0].approvals || [];
      fresh.forEach(function (a) {
        if (
          !snapshot.some(function (s) {
            return s.id === a.id;
          })
        )
          snapshot.push(a);
      });
      arrivedDuringLoad = null;
      hiddenCount = lists[0].hidden || 0;
      setPending(snapshot);
      history = done.slice(0, HISTORY_SIZE);
      renderHistory();
    },
    function (error) {
      arrivedDuringLoad = null;
      throw error;
    },
  );
}

var source = null;
function connect() {
  if (source) source.close();
  source = new EventSource('/v1/events');
  source.addEventListener('open', function () {
    conn.textContent = 'live';
    conn.setAttribute('data-state', 'live');
    // Catch up on whatever happened while disconnected.
    load().catch(function () {});
  });
  source.addEventListener('error', function () {
    conn.textContent = 'reconnecting…';
    conn.setAttribute('data-state', 'offline');
    // EventSource retries network errors itself, but gives up after an HTTP error (a restart, an expired session).
    if (source.readyState === EventSource.CLOSED) reconnectLater();
  });
  source.addEventListener('approval.created', function (e) {
    added(JSON.parse(e.data));
  });
  ['approval.resolved', 'approval.expired', 'approval.cancelled'].forEach(function (type) {
    source.addEventListener(type, function (e) {
      answered(JSON.parse(e.data));
    });
  });
}

function reconnectLater() {
  setTimeout(function () {
    api('/v1/approvals?limit=1').then(connect, reconnectLater);
  }, 3000);
}

setInterval(function () {
  Array.prototype.forEach.call(document.querySelectorAll('.times'), fillTimes);
}, 1000);
dialog.setAttribute('data-armed', 'true');
connect();
