// toolgate review page: the live queue (EventSource on /v1/events), the five-option dialog and its keys, the history.
(function () {
  'use strict';
  var CHOICES = { 1: 'allow_once', 2: 'allow_session', 3: 'allow_always', 4: 'deny', 5: 'deny_with_feedback' };
  // After the selection moves by itself (an answer, a new arrival), number keys wait a moment, so a key
  // pressed for one request never answers the next one.
  var SETTLE_MS = 350;
  var HISTORY_SIZE = 30;
  var csrf = document.querySelector('meta[name="csrf-token"]').getAttribute('content');
  var $ = function (id) { return document.getElementById(id); };
  var queueEl = $('queue'), dialog = $('dialog'), detail = $('detail'), msg = $('msg'), conn = $('conn');
  var optionButtons = Array.prototype.slice.call(document.querySelectorAll('.opt'));
  var ruleInput = $('rule'), feedbackInput = $('feedback');

  var pending = [];          // approvals, oldest first
  var history = [];          // answered approvals, newest first
  var finished = {};         // ids seen terminal: never shown as pending again
  var selectedId = null;
  var highlighted = 1;
  var mode = 'options';      // options | rule | feedback
  var armedAt = 0;
  var busy = false;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  // The command or path a person reads, as the agent sent it.
  function subject(a) {
    var args = a.args || {};
    if (typeof args.command === 'string') return args.command;
    if (Array.isArray(args.command)) return args.command.join(' ');
    var keys = ['file_path', 'path', 'filePath', 'notebook_path', 'absolute_path', 'url', 'pattern'];
    for (var i = 0; i < keys.length; i++) if (typeof args[keys[i]] === 'string') return args[keys[i]];
    return JSON.stringify(args);
  }

  // The command with the dangerous parts (finding spans, else the finding's command text) in <mark>.
  function commandEl(a) {
    var text = subject(a);
    var code = el('code', 'cmd');
    var ranges = [];
    var exact = typeof (a.args || {}).command === 'string';
    (a.findings || []).forEach(function (f) {
      if (exact && Array.isArray(f.span) && f.span[0] >= 0 && f.span[1] > f.span[0] && f.span[1] <= text.length) ranges.push([f.span[0], f.span[1]]);
      else if (f.command && f.command.length < text.length) {
        var at = wordAt(text, f.command);
        if (at >= 0) ranges.push([at, at + f.command.length]);
      }
    });
    ranges.sort(function (x, y) { return x[0] - y[0]; });
    var pos = 0;
    ranges.forEach(function (r) {
      if (r[1] <= pos) return;
      var start = Math.max(r[0], pos);
      if (start > pos) code.appendChild(document.createTextNode(text.slice(pos, start)));
      code.appendChild(el('mark', '', text.slice(start, r[1])));
      pos = r[1];
    });
    if (pos < text.length) code.appendChild(document.createTextNode(text.slice(pos)));
    return code;
  }

  // Where `part` stands in `text` as whole shell words (so `sh` is found in `… | sh`, not in `example.sh`).
  function wordAt(text, part) {
    for (var at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      var before = at === 0 ? ' ' : text[at - 1], after = text[at + part.length] || ' ';
      if (/[\s;|&(`$]/.test(before) && /[\s;|&)`]/.test(after)) return at;
    }
    return -1;
  }

  // Screen readers hear arrivals and answers without moving focus.
  function announce(text) { $('announce').textContent = text; }

  function riskOf(a) { return a.risk === 'high' || a.risk === 'medium' ? a.risk : 'low'; }
  function badge(a) {
    var b = el('span', 'badge risk-' + riskOf(a), a.risk || 'unknown');
    b.setAttribute('aria-label', 'risk ' + (a.risk || 'unknown'));
    return b;
  }

  function duration(ms) {
    var s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return s + 's';
    var m = Math.floor(s / 60);
    if (m < 60) return m + 'm ' + (s % 60) + 's';
    return Math.floor(m / 60) + 'h ' + (m % 60) + 'm';
  }

  function timesEl(a) {
    var t = el('span', 'times');
    t.setAttribute('data-created', a.created_at);
    t.setAttribute('data-expires', a.expires_at);
    fillTimes(t);
    return t;
  }
  function fillTimes(t) {
    var now = Date.now();
    var left = Date.parse(t.getAttribute('data-expires')) - now;
    t.textContent = duration(now - Date.parse(t.getAttribute('data-created'))) + ' ago · ';
    var l = el('span', left < 60000 ? 'soon' : '', left > 0 ? duration(left) + ' left' : 'expiring');
    t.appendChild(l);
  }

  function metaEl(a) {
    var m = el('div', 'meta');
    [['agent', a.agent_id], ['session', a.session_id], ['cwd', a.cwd]].forEach(function (pair, i) {
      if (i) m.appendChild(document.createTextNode(' · '));
      m.appendChild(document.createTextNode(pair[0] + ' '));
      m.appendChild(el(pair[0] === 'cwd' ? 'code' : 'b', '', pair[1] || '—'));
    });
    return m;
  }

  function itemEl(a) {
    var li = el('li', 'item risk-' + riskOf(a));
    li.setAttribute('data-approval-id', a.id);
    li.setAttribute('role', 'option');
    li.tabIndex = 0;
    var row = el('div', 'row');
    row.appendChild(badge(a));
    row.appendChild(el('span', 'tool', a.tool));
    row.appendChild(timesEl(a));
    li.appendChild(row);
    li.appendChild(commandEl(a));
    li.appendChild(el('div', 'reason', a.reason));
    li.appendChild(metaEl(a));
    return li;
  }

  function find(id) {
    for (var i = 0; i < pending.length; i++) if (pending[i].id === id) return i;
    return -1;
  }
  function selected() { var i = find(selectedId); return i >= 0 ? pending[i] : null; }

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
    var head = el('div', 'row');
    head.appendChild(badge(a));
    head.appendChild(el('span', 'tool', a.tool));
    head.appendChild(timesEl(a));
    detail.appendChild(head);
    detail.appendChild(commandEl(a));
    detail.appendChild(el('p', 'reason', a.reason));
    if (a.findings && a.findings.length) {
      var ul = el('ul', 'findings');
      a.findings.forEach(function (f) { ul.appendChild(el('li', '', f.risk + ': ' + f.reason + (f.command ? ' — ' + f.command : ''))); });
      detail.appendChild(ul);
    }
    detail.appendChild(metaEl(a));
    $('rule-text').textContent = a.suggested_pattern || '(you write the rule)';
    $('grant-text').textContent = a.session_id ? (a.suggested_pattern ? a.suggested_pattern + ' in session ' + a.session_id : '') : '(no session)';
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
    setTimeout(function () { if (Date.now() >= armedAt) dialog.setAttribute('data-armed', 'true'); }, SETTLE_MS + 10);
  }
  function armed() { return Date.now() >= armedAt && !busy; }

  function ensureSelection() {
    if (selected()) return;
    var next = pending[Math.min(lastIndex, pending.length - 1)] || pending[0];
    select(next ? next.id : null, false);
    if (next && (document.activeElement === document.body || !document.activeElement)) focusItem(next.id);
  }
  var lastIndex = 0;

  function setPending(list) {
    pending = list.filter(function (a) { return a.status === 'pending' && !finished[a.id]; });
    pending.sort(function (x, y) { return Date.parse(x.created_at) - Date.parse(y.created_at); });
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
    history = history.filter(function (h) { return h.id !== a.id; });
    history.unshift(a);
    history.length = Math.min(history.length, HISTORY_SIZE);
    renderHistory();
  }

  var HOW = { allow_once: 'allowed once', allow_session: 'allowed for the session', allow_always: 'always allowed', deny: 'denied', deny_with_feedback: 'denied with feedback' };
  function renderHistory() {
    var ol = $('history');
    ol.textContent = '';
    history.forEach(function (a) {
      var li = el('li');
      li.setAttribute('data-history-id', a.id);
      li.appendChild(el('span', 'status ' + a.status, a.status));
      li.appendChild(el('span', '', a.choice ? HOW[a.choice] || a.choice : a.status === 'expired' ? 'nobody answered in time' : ''));
      li.appendChild(el('span', 'meta', a.resolved_by ? 'by ' + a.resolved_by : ''));
      li.appendChild(el('span', 'tool', a.tool));
      li.appendChild(el('code', '', subject(a)));
      if (a.rule_pattern) li.appendChild(el('span', 'meta', 'rule ' + a.rule_pattern));
      if (a.feedback) li.appendChild(el('span', 'meta', '“' + a.feedback + '”'));
      if (a.resolved_at) li.appendChild(el('span', 'meta', new Date(a.resolved_at).toLocaleTimeString()));
      ol.appendChild(li);
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
    if (n === 2 && optionButtons[1].disabled) { msg.textContent = 'This call has no session (or no pattern) to allow for.'; return; }
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
            return api('/v1/approvals/' + encodeURIComponent(a.id)).then(function (r) { return r.ok ? r.json().then(answered) : null; });
          }
          msg.textContent = data.detail || 'The answer was refused (' + res.status + ').';
        });
      })
      .catch(function () { msg.textContent = 'Could not reach toolgate; the answer was not sent.'; })
      .then(function () { busy = false; });
  }

  function api(path, init) {
    init = init || {};
    var headers = { accept: 'application/json' };
    if (init.method && init.method !== 'GET') { headers['content-type'] = 'application/json'; headers['x-csrf-token'] = csrf; }
    init.headers = headers;
    init.credentials = 'same-origin';
    return fetch(path, init).then(function (res) {
      if (res.status === 401) { location.assign('/review'); throw new Error('signed out'); }
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

  function isTextField(t) { return t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT'); }

  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || isTextField(e.target)) return;
    if (mode !== 'options') {
      if (e.key === 'Escape') { e.preventDefault(); backToOptions(); }
      return;
    }
    var t = e.target;
    // Links and buttons outside the dialog keep their own Enter/Space (sign-out, audit log).
    var foreign = t && (t.tagName === 'A' || t.tagName === 'BUTTON') && !dialog.contains(t);
    if (foreign && (e.key === 'Enter' || e.key === ' ')) return;
    if (!selected()) return;
    var k = e.key;
    if (k === 'ArrowDown' || k === 'ArrowUp') {
      highlighted = (highlighted + (k === 'ArrowDown' ? 0 : 3)) % 5 + 1;
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
    if (e.key === 'Enter') { e.preventDefault(); saveRule(); }
    else if (e.key === 'Escape') { e.preventDefault(); backToOptions(); }
  });
  feedbackInput.addEventListener('keydown', function (e) {
    if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); sendFeedback(); }
    else if (e.key === 'Escape') { e.preventDefault(); backToOptions(); }
  });
  function saveRule() {
    var a = selected();
    var pattern = ruleInput.value.trim();
    if (!a || busy) return;
    if (!pattern) { msg.textContent = 'Write the rule to save first.'; return; }
    resolve(a, { choice: 'allow_always', rule_pattern: pattern });
  }
  function sendFeedback() {
    var a = selected();
    if (!a || busy) return;
    if (!feedbackInput.value.trim()) { msg.textContent = 'Type the feedback for the agent first.'; return; }
    resolve(a, { choice: 'deny_with_feedback', feedback: feedbackInput.value });
  }
  $('rule-save').addEventListener('click', saveRule);
  $('feedback-send').addEventListener('click', sendFeedback);
  $('rule-cancel').addEventListener('click', backToOptions);
  $('feedback-cancel').addEventListener('click', backToOptions);

  optionButtons.forEach(function (b, i) {
    // A pointer click is aimed at what is on screen, so it needs no settling; Space on a focused option clicks too.
    b.addEventListener('click', function (e) { if (e.detail !== 0) armedAt = 0; choose(i + 1); });
    b.addEventListener('focus', function () { highlighted = i + 1; renderOptions(); });
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
      api('/v1/approvals?status=pending&limit=1000').then(function (r) { return r.json(); }),
      api('/v1/approvals?limit=' + (HISTORY_SIZE * 3)).then(function (r) { return r.json(); }),
    ]).then(function (lists) {
      var done = (lists[1].approvals || []).filter(function (a) { return a.status !== 'pending'; });
      done.forEach(function (a) { finished[a.id] = true; });
      var fresh = pending.filter(function (a) { return arrivedDuringLoad[a.id]; });
      var snapshot = lists[0].approvals || [];
      fresh.forEach(function (a) { if (!snapshot.some(function (s) { return s.id === a.id; })) snapshot.push(a); });
      arrivedDuringLoad = null;
      setPending(snapshot);
      history = done.slice(0, HISTORY_SIZE);
      renderHistory();
    }, function (error) { arrivedDuringLoad = null; throw error; });
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
    source.addEventListener('approval.created', function (e) { added(JSON.parse(e.data)); });
    ['approval.resolved', 'approval.expired', 'approval.cancelled'].forEach(function (type) {
      source.addEventListener(type, function (e) { answered(JSON.parse(e.data)); });
    });
  }

  function reconnectLater() {
    setTimeout(function () { api('/v1/approvals?limit=1').then(connect, reconnectLater); }, 3000);
  }

  setInterval(function () { Array.prototype.forEach.call(document.querySelectorAll('.times'), fillTimes); }, 1000);
  dialog.setAttribute('data-armed', 'true');
  connect();
})();
