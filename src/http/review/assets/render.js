// toolgate review page: DOM builders for approvals (text only, never innerHTML: commands come from agents).
export function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

// The command or path a person reads, as the agent sent it.
export function subject(a) {
  var args = a.args || {};
  if (typeof args.command === 'string') return args.command;
  if (Array.isArray(args.command)) return args.command.join(' ');
  var keys = ['file_path', 'path', 'filePath', 'notebook_path', 'absolute_path', 'url', 'pattern'];
  for (var i = 0; i < keys.length; i++) if (typeof args[keys[i]] === 'string') return args[keys[i]];
  return JSON.stringify(args);
}

// The command with the dangerous parts (finding spans, else the finding's command text) in <mark>.
export function commandEl(a) {
  var text = subject(a);
  var code = el('code', 'cmd');
  var ranges = [];
  var exact = typeof (a.args || {}).command === 'string';
  (a.findings || []).forEach(function (f) {
    if (exact && Array.isArray(f.span) && f.span[0] >= 0 && f.span[1] > f.span[0] && f.span[1] <= text.length)
      ranges.push([f.span[0], f.span[1]]);
    else if (f.command && f.command.length < text.length) {
      var at = wordAt(text, f.command);
      if (at >= 0) ranges.push([at, at + f.command.length]);
    }
  });
  ranges.sort(function (x, y) {
    return x[0] - y[0];
  });
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
    var before = at === 0 ? ' ' : text[at - 1],
      after = text[at + part.length] || ' ';
    if (/[\s;|&(`$]/.test(before) && /[\s;|&)`]/.test(after)) return at;
  }
  return -1;
}

function riskOf(a) {
  return a.risk === 'high' || a.risk === 'medium' ? a.risk : 'low';
}
export function badge(a) {
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

export function timesEl(a) {
  var t = el('span', 'times');
  t.setAttribute('data-created', a.created_at);
  t.setAttribute('data-expires', a.expires_at);
  fillTimes(t);
  return t;
}
export function fillTimes(t) {
  var now = Date.now();
  var left = Date.parse(t.getAttribute('data-expires')) - now;
  t.textContent = duration(now - Date.parse(t.getAttribute('data-created'))) + ' ago · ';
  var l = el('span', left < 60000 ? 'soon' : '', left > 0 ? duration(left) + ' left' : 'expiring');
  t.appendChild(l);
}

export function metaEl(a) {
  var m = el('div', 'meta');
  [
    ['agent', a.agent_id],
    ['session', a.session_id],
    ['cwd', a.cwd],
  ].forEach(function (pair, i) {
    if (i) m.appendChild(document.createTextNode(' · '));
    m.appendChild(document.createTextNode(pair[0] + ' '));
    m.appendChild(el(pair[0] === 'cwd' ? 'code' : 'b', '', pair[1] || '—'));
  });
  return m;
}

/** The header both a queue item and the dialog show: risk badge, tool, age and time left. */
export function headRowEl(a) {
  var row = el('div', 'row');
  row.appendChild(badge(a));
  row.appendChild(el('span', 'tool', a.tool));
  row.appendChild(timesEl(a));
  return row;
}

export function itemEl(a) {
  var li = el('li', 'item risk-' + riskOf(a));
  li.setAttribute('data-approval-id', a.id);
  li.setAttribute('role', 'option');
  li.tabIndex = 0;
  li.appendChild(headRowEl(a));
  li.appendChild(commandEl(a));
  li.appendChild(el('div', 'reason', a.reason));
  li.appendChild(metaEl(a));
  return li;
}

var HOW = {
  allow_once: 'allowed once',
  allow_session: 'allowed for the session',
  allow_always: 'always allowed',
  deny: 'denied',
  deny_with_feedback: 'denied with feedback',
};

// One answered approval: how it ended, who answered, the command, the rule or the feedback.
export function historyItemEl(a) {
  var li = el('li');
  li.setAttribute('data-history-id', a.id);
  li.appendChild(el('span', 'status ' + a.status, a.status));
  li.appendChild(
    el('span', '', a.choice ? HOW[a.choice] || a.choice : a.status === 'expired' ? 'nobody answered in time' : ''),
  );
  li.appendChild(el('span', 'meta', a.resolved_by ? 'by ' + a.resolved_by : ''));
  li.appendChild(el('span', 'tool', a.tool));
  li.appendChild(el('code', '', subject(a)));
  if (a.rule_pattern) li.appendChild(el('span', 'meta', 'rule ' + a.rule_pattern));
  if (a.feedback) li.appendChild(el('span', 'meta', '“' + a.feedback + '”'));
  if (a.resolved_at) li.appendChild(el('span', 'meta', new Date(a.resolved_at).toLocaleTimeString()));
  return li;
}
