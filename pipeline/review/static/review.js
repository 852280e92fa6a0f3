// The review page: filters, and when served (an #actions bar), the reviewer's actions.
(function () {
  'use strict';
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.unit'));

  function applyFilters() {
    var flaggedOnly = document.getElementById('flagged-only').checked;
    var below = parseFloat(document.getElementById('below').value);
    var shown = 0;
    rows.forEach(function (row) {
      var c = parseFloat(row.dataset.confidence);
      var show = (!flaggedOnly || row.classList.contains('flagged')) && (isNaN(below) || c < below);
      row.hidden = !show;
      if (show) { shown++; }
    });
    document.getElementById('shown').textContent = shown;
  }
  document.getElementById('flagged-only').addEventListener('change', applyFilters);
  document.getElementById('below').addEventListener('input', applyFilters);
  applyFilters();

  var bar = document.getElementById('actions');
  if (!bar) { return; }
  var api = bar.dataset.api, pivot = bar.dataset.pivot, at = -1;
  var status = document.getElementById('status');
  var list = document.getElementById('decisions');

  function say(text, state) { status.textContent = text; status.dataset.state = state; }
  function language() { return document.getElementById('language').value; }

  function focusRow(i) {
    if (i < 0 || i >= rows.length) { return; }
    if (at >= 0) { rows[at].classList.remove('focus'); }
    at = i;
    rows[i].classList.add('focus');
    rows[i].scrollIntoView({block: 'center'});
    document.getElementById('focused').textContent =
      'row ' + (i + 1) + ' of ' + rows.length + ', article ' + rows[i].dataset.article;
  }
  function move(step, flaggedOnly) {
    for (var i = at + step; i >= 0 && i < rows.length; i += step) {
      if (!rows[i].hidden && (!flaggedOnly || rows[i].classList.contains('flagged'))) {
        focusRow(i); return;
      }
    }
    say('no ' + (flaggedOnly ? 'flagged ' : '') + 'row ' + (step > 0 ? 'below' : 'above'), 'error');
  }

  function post(body) {
    return fetch(api, {method: 'POST', headers: {'Content-Type': 'application/json'},
                       body: JSON.stringify(body)})
      .then(function (r) { return r.json().then(function (data) { return {ok: r.ok, data: data}; }); })
      .catch(function (e) { return {ok: false, data: {error: 'the review server did not answer (' + e + ')'}}; });
  }

  // Which decisions each row is about: its data-decisions, and the green edge.
  function mark(rowNumbers, id, on) {
    rowNumbers.forEach(function (n) {
      var row = rows[n];
      if (!row) { return; }
      var ids = (row.dataset.decisions || '').split(' ').filter(Boolean);
      ids = ids.filter(function (x) { return x !== id; });
      if (on) { ids.push(id); }
      row.dataset.decisions = ids.join(' ');
      row.classList.toggle('decided', ids.length > 0);
    });
  }
  function rowsOf(item) {
    return (item.dataset.rows || '').split(' ').filter(Boolean).map(Number);
  }

  function listed(answer) {
    var item = document.createElement('li');
    item.dataset.id = answer.decision.id;
    item.dataset.file = answer.file;
    item.dataset.rows = answer.rows.join(' ');
    var what = document.createElement('span');
    what.className = 'what';
    what.textContent = answer.what;
    var who = document.createElement('span');
    who.className = 'who';
    who.textContent = answer.decision.who + ', ' + answer.decision.at;
    item.append(what, ' ', who);
    if (answer.elsewhere) {
      var file = document.createElement('span');
      file.className = 'file';
      file.textContent = 'in the review of ' + answer.file;
      item.append(' ', file);
    }
    var undo = document.createElement('button');
    undo.type = 'button';
    undo.className = 'undo';
    undo.textContent = 'Undo';
    item.append(' ', undo);
    list.append(item);
    document.getElementById('no-decisions').hidden = true;
  }

  function act(body) {
    if (at < 0) { say('select a row first: click it, or go to one with j/k or n/p', 'error'); return; }
    var row = rows[at];
    body.row = parseInt(row.dataset.row, 10);
    body.language = body.language || language();
    post(body).then(function (answer) {
      if (!answer.ok) { say('refused: ' + answer.data.error, 'error'); return; }
      var where = ' (row ' + (body.row + 1) + ')';
      if (answer.data.duplicate) {
        say('already recorded: ' + answer.data.what + where, 'ok');
        return;
      }
      listed(answer.data);
      mark(answer.data.rows, answer.data.decision.id, true);
      say('recorded: ' + answer.data.decision.action + where + ': ' + answer.data.what, 'ok');
    });
  }

  function undo(item) {
    post({action: 'undo', of: item.dataset.id, file: item.dataset.file}).then(function (answer) {
      if (!answer.ok) { say('refused: ' + answer.data.error, 'error'); return; }
      mark(rowsOf(item), item.dataset.id, false);
      var what = item.querySelector('.what').textContent;
      item.remove();
      document.getElementById('no-decisions').hidden = list.children.length > 0;
      say('undone: ' + what, 'ok');
    });
  }

  function correct(side) {
    var word = document.getElementById('word'), correction = document.getElementById('correction');
    if (!word.value.trim()) { say('type the word to correct first', 'error'); word.focus(); return; }
    act({action: 'edit', word: word.value, correction: correction.value,
         language: (side || document.getElementById('edit-side').value) === 'pivot' ? pivot : language()});
  }

  document.getElementById('buttons').addEventListener('click', function (e) {
    var button = e.target.closest('button[data-action]');
    if (!button) { return; }
    var body = {action: button.dataset.action};
    if (button.dataset.side) { body.side = button.dataset.side; }
    if (button.dataset.direction) { body.direction = button.dataset.direction; }
    act(body);
  });
  document.getElementById('correct').addEventListener('click', function () { correct(); });
  document.getElementById('correction').addEventListener('keydown', function (e) {
    if (e.key === 'Enter') { e.preventDefault(); correct(); }
  });
  list.addEventListener('click', function (e) {
    if (e.target.classList.contains('undo')) { undo(e.target.closest('li')); }
  });
  rows.forEach(function (row, i) { row.addEventListener('click', function () { focusRow(i); }); });

  var keys = {c: {action: 'confirm'}, r: {action: 'reject'}, s: {action: 'split'},
    a: {action: 'join', side: 'other', direction: 'next'},
    A: {action: 'join', side: 'other', direction: 'previous'},
    b: {action: 'join', side: 'pivot', direction: 'next'},
    B: {action: 'join', side: 'pivot', direction: 'previous'},
    m: {action: 'merge', direction: 'previous'}, M: {action: 'merge', direction: 'next'}};
  document.addEventListener('keydown', function (e) {
    var tag = e.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (e.key === 'j') { move(1, true); }
    else if (e.key === 'k') { move(-1, true); }
    else if (e.key === 'n') { move(1, false); }
    else if (e.key === 'p') { move(-1, false); }
    else if (keys[e.key]) { act(Object.assign({}, keys[e.key])); }
    else if (e.key === 'e' || e.key === 'E') {
      document.getElementById('edit-side').value = e.key === 'E' ? 'pivot' : 'other';
      document.getElementById('word').focus();
    } else if (e.key === 'u') {
      var last = list.lastElementChild;
      if (last) { undo(last); } else { say('no decision to undo', 'error'); }
    } else { return; }
    e.preventDefault();
  });
})();
