// Part 4: the cell inspector (a cell's value, its three inputs, the recurrence with the
// numbers filled in, and which inputs came by message), the walk's rule cell by cell, and the
// texts of a walk step and of the end.

// Why (i, j) belongs to its owner.
function ownerWhy(i, j) {
  if (wave) return waveOwnerWhy(i, j);
  const k = owner(i, j);
  if (bands) return 'p' + k + ', whose band holds columns ' + bands.cols[k][0] + '\u2013' + (bands.cols[k][1] - 1);
  const sp = split(i + j);
  return '<code>cell_proc(' + i + ', ' + j + ')</code> = p' + k + ' (d = ' + (i + j) + ', pos = ' + pos(i, j) + ', c = ' + sp.c + ', f = ' + sp.f + ', r = ' + sp.r + ')';
}

// How the value of input (a, b) reached the owner of (i, j): its own, a message, the border.
function inputSource(a, b, i, j) {
  if (a < 0 || b < 0) return 'the border';
  const k = owner(i, j);
  const from = owner(a, b);
  if (from === k) return 'its own';
  if (bands) return 'in ' + rankName(from) + '\u2019s band: this band never sees it, only its row\u2019s carry, which came <b>by message</b>';
  const e = delivered.get(a * n + b);
  return e && e.to === k ? '<b>by message</b> from ' + rankName(from) : 'from p' + from + ' (held since an earlier message)';
}

// The recurrence at (i, j) with its numbers, for the panel; frames the cell and its inputs on
// the grid (a schedule has no values: the cell alone).
function inspect(i, j) {
  inputMarks.forEach((r) => r.setAttribute('visibility', 'hidden'));
  if (wave && i !== null && i < m && j < n) return waveInspect(i, j);
  if (i === null || i >= m || j >= n) {
    selectedMark.setAttribute('visibility', 'hidden');
    $('cell-text').innerHTML = solved ? '<p class="note">Hover over or click a cell: its value, its three inputs and the recurrence with the numbers.</p>'
      : '<p class="note">Hover over a cell for its owner and position.</p>';
    return;
  }
  frame(selectedMark, i, j, 10);
  selectedMark.setAttribute('visibility', 'visible');
  if (!solved) {
    $('cell-text').innerHTML = '<p><b>cell (' + i + ', ' + j + ')</b> of ' + rankName(owner(i, j)) + ': ' + ownerWhy(i, j) + '</p>';
    return;
  }
  const ins = [[i - 1, j - 1, 'up-left'], [i - 1, j, 'up'], [i, j - 1, 'left']];
  ins.forEach(([a, b], k) => {
    if (a < 0 || b < 0) return;
    frame(inputMarks[k], a, b, 8);
    inputMarks[k].setAttribute('visibility', 'visible');
  });
  const done = unitOfCell(i, j) < doneHi;
  const here = value(i, j);
  const v = (a, b) => V + '[' + a + '][' + b + ']';
  const [dg, up, left] = ins.map(([a, b]) => value(a, b));
  const match = data.x[i] === data.y[j];
  const compare = '<code>x[' + i + '] = ' + esc(quoted(data.x[i])) + (match ? ' = ' : ' \u2260 ') + 'y[' + j + ']' + (match ? '' : ' = ' + esc(quoted(data.y[j]))) + '</code>';
  let rule;
  if (!edit) {
    rule = match ? v(i, j) + ' = ' + v(i - 1, j - 1) + ' + 1 = ' + dg + ' + 1 = ' + here
      : v(i, j) + ' = max(' + v(i - 1, j) + ', ' + v(i, j - 1) + ') = max(' + up + ', ' + left + ') = ' + here;
  } else {
    rule = match ? v(i, j) + ' = ' + v(i - 1, j - 1) + ' = ' + here
      : v(i, j) + ' = 1 + min(' + v(i - 1, j - 1) + ', ' + v(i - 1, j) + ', ' + v(i, j - 1) + ') = 1 + min(' + dg + ', ' + up + ', ' + left + ') = ' + here;
  }
  let html = '<p><b>cell (' + i + ', ' + j + ')</b> of ' + rankName(owner(i, j)) + ': ' + compare + '</p>' +
    '<p class="recurrence"><code>' + esc(rule) + '</code>' + (done ? '' : ' <span class="note">(not computed yet at this step)</span>') + '</p><ul class="inputs">';
  ins.forEach(([a, b, name], k) => {
    html += '<li>' + name + ' <code>' + v(a, b) + ' = ' + [dg, up, left][k] + '</code>: ' + inputSource(a, b, i, j) + '</li>';
  });
  $('cell-text').innerHTML = html + '</ul>';
}

// The rule's decision at (i, j): what the walk does, and the formulas behind it.
function ruleAt(i, j, mv) {
  const xi = quoted(data.x[i]);
  const yj = quoted(data.y[j]);
  const next = target(i, j, mv);
  const to = ' to (' + next.join(', ') + ')';
  const c = (t) => '<code>' + t + '</code>';
  const same = c('x[' + i + '] = ' + esc(xi) + ' = y[' + j + ']');
  const differ = c('x[' + i + '] = ' + esc(xi) + ' \u2260 y[' + j + '] = ' + esc(yj));
  if (!edit) {
    if (mv === 0) {
      return { move: 'a match: ' + xi + ' joins the LCS, and the walk goes diagonally' + to,
        rule: '<p>' + same + ': match, prepend it, go to ' + c('(i \u2212 1, j \u2212 1)') + '</p>' };
    }
    if (wave) return waveLcsRule(i, j, mv, differ, to);
    const up = value(i - 1, j);
    const left = value(i, j - 1);
    const dir = mv === 2 ? 'up' : 'left';
    return { move: 'no match, so the walk goes ' + dir + to,
      rule: '<p>' + differ + ': ' + c('M[i\u22121][j] = ' + up + (up >= left ? ' \u2265 ' : ' &lt; ') + 'M[i][j\u22121] = ' + left) + ', so ' + dir + '</p>' };
  }
  const here = value(i, j);
  // A wave run leaves cells unreached: their cost is more than any the walk asks about.
  const [dg, up, left] = [value(i - 1, j - 1), value(i - 1, j), value(i, j - 1)].map((v) => (v === Infinity ? '\u221E' : v));
  if (mv === 0) {
    return { move: 'a match: ' + xi + ' is aligned with itself (=), at no cost, and the walk goes diagonally' + to,
      rule: '<p>' + same + ': match, ' + c('D[i][j] = D[i\u22121][j\u22121] = ' + here) + ', go to ' + c('(i \u2212 1, j \u2212 1)') + '</p>' };
  }
  let rule = '<p>' + differ + ': ' + c('D[i][j] = 1 + min(D[i\u22121][j\u22121], D[i\u22121][j], D[i][j\u22121]) = 1 + min(' + dg + ', ' + up + ', ' + left + ') = ' + here) + '</p>';
  const less = 'D[i][j] \u2212 1 = ' + (here - 1);
  let move;
  if (mv === 1) {
    move = 'no match, and ' + xi + ' and ' + yj + ' are substituted (X): the walk goes diagonally' + to;
    rule += '<p>' + c('D[i\u22121][j\u22121] = ' + dg + ' = ' + less) + ': a substitution, go to ' + c('(i \u2212 1, j \u2212 1)') + '</p>';
  } else if (mv === 2) {
    move = 'no match and no substitution: x[' + i + '] = ' + xi + ' is deleted (' + data.cigar_ops[2] + ' in the CIGAR) and the walk goes up' + to;
    rule += '<p>' + c('D[i\u22121][j\u22121] = ' + dg + ' \u2260 ' + less) + ', ' + c('D[i\u22121][j] = ' + up + ' = ' + less) + ': x[i] deleted, go up</p>';
  } else {
    move = 'no match, no substitution, no deletion: y[' + j + '] = ' + yj + ' is inserted (' + data.cigar_ops[3] + ' in the CIGAR) and the walk goes left' + to;
    rule += '<p>' + c('D[i\u22121][j\u22121] = ' + dg) + ' and ' + c('D[i\u22121][j] = ' + up) + ' differ from ' + c(less) + ': y[j] inserted, go left</p>';
  }
  return { move, rule };
}

function walkTexts(st) {
  const k = st.shown;
  const [i, j] = walk[k - 1];
  const own = owner(i, j);
  $('phase').textContent = 'Traceback: cell ' + k + ' of ' + walk.length + ' of the walk';
  const mv = walkMoves[k - 1];
  const decided = ruleAt(i, j, mv);
  const rule = decided.rule;
  let move = decided.move;
  const next = target(i, j, mv);
  if (next[0] < 0 || next[1] < 0) {
    move += ', which is outside the matrix: the walk ends';
    if (tail.length > 0) {
      move += '; the rest of the path runs along the border, ' + plural(tail.length, 'byte', 'bytes') + ' of ' +
        (tail[0] === 2 ? 'x' : 'y') + ' alone (' + tail.length + data.cigar_ops[tail[0]] + ')';
    }
  }
  const hops = data.hops.filter((h) => h.t >= st.from - 1 && h.t < k - 1);
  let what = 'The walk is at (' + i + ', ' + j + '), a cell of p' + own + ': ' + move + '.';
  hops.forEach((h) => {
    what += ' Hop: p' + h.from + ' sends p' + h.to + ' one traceback message: ' + hopContent(h) + '.';
  });
  $('what').textContent = what;
  showHopLabel(hops);
  inspect(i, j);
  const v = value(i, j);
  $('formula-text').innerHTML = rule +
    '<p><code>' + V + '[' + i + '][' + j + '] = ' + v + '</code>: ' + (edit
      ? 'the edit distance of x[0..=' + i + '] and y[0..=' + j + '] is ' + v
      : wave ? 'the indel distance of x[0..=' + i + '] and y[0..=' + j + '] is ' + v + ', so their LCS has (' + (i + j + 2) + ' \u2212 ' + v + ') / 2 = ' + (i + j + 2 - v) / 2 + ' bytes'
        : 'the LCS of x[0..=' + i + '] and y[0..=' + j + '] has ' + v + ' bytes') + '</p>' +
    '<p>owner: ' + ownerWhy(i, j) + '</p>' +
    (wave ? '<p>The walk stays on a rank while that rank keeps the steps its look-ups read; it hops to the owner of the cell\u2019s diagonal at the cell\u2019s cost when it strays further: '
      : '<p>A hop happens when the next cell has another owner: ') +
    'one message with the next cell (16 bytes) and the path so far (its number of moves, 8 bytes, then the moves four to a byte).</p>';
}

function endTexts() {
  $('phase').textContent = 'End of the walk';
  const answer = edit
    ? 'the edit distance is ' + data.distance + ', and the alignment (the file\u2019s first sequence the query) is ' + data.cigar + '. '
    : 'the LCS is "' + (data.lcs || '') + '" (' + found(walk.length).length + ' bytes). ';
  $('what').textContent = 'The walk has left the matrix: ' + answer + (data.control || '');
  let f = '<p>' + plural(control.length, 'control message', 'control messages') + ': ' +
    control.map((e) => 'p' + e.from + '\u2192p' + e.to + ' (' + e.bytes + ' B)').join(', ') + '</p>';
  if (edit && data.view) f += '<pre class="alignment">' + data.view.map(esc).join('\n') + '</pre>';
  $('formula-text').innerHTML = f;
  showHopLabel([]);
}

