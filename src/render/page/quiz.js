// Part 6: the prediction mode. With it on, each fill step asks about the next one: which rank
// owns one of its cells, and how many messages the whole step sends (every cell of the
// diagonal, or every band of the stage, together); each question has its own answer line,
// checked against the formulas and the recorded (or predicted) messages, with the reason.
let quizOn = false;
let question = null;
function ask(s) {
  $('quiz').hidden = !quizOn;
  question = null;
  if (!quizOn) return;
  const next = s + 1;
  const st = next < S ? stepOf(next) : null;
  if (!st || st.phase !== 'fill') {
    $('quiz-text').innerHTML = '<p>Predictions are asked before each step of the fill: step back into the fill to try one.</p>';
    return;
  }
  let messages = 0;
  for (let d = st.lo; d < st.hi; d++) messages += byUnit[d].length;
  const unit = st.hi - st.lo === 1 ? unitName + ' ' + st.lo : unitName + 's ' + st.lo + '\u2013' + (st.hi - 1);
  let html;
  if (wave) {
    question = waveQuestion(next, st.lo, unit, messages);
    html = question.text;
  } else {
    const cells = unitCellList(st.lo);
    const [i, j] = cells[Math.floor(cells.length / 2)];
    question = { step: next, unit, cell: [i, j], owner: owner(i, j), messages };
    html = '<p>The next step computes ' + unit + '. Which rank owns cell (' + i + ', ' + j + ')?</p><p class="choices">';
  }
  if (question.owner !== null) {
    for (let k = 0; k < (bands ? active : Math.min(P, 12)); k++) html += '<button type="button" data-owner="' + k + '">p' + k + '</button> ';
  }
  const counting = bands
    ? 'How many messages of carries are sent at ' + unit + ', all the bands together?'
    : wave ? 'How many halo messages do the ranks exchange after ' + unit + ', all of them together?'
      : 'How many boundary messages does ' + unit + ' send, all its cells together?';
  html += '</p><p id="quiz-owner-verdict" aria-live="polite"></p>' +
    '<p><label>' + counting + ' <input id="quiz-count" type="number" min="0" step="1"></label> ' +
    '<button type="button" id="quiz-check">check</button></p><p id="quiz-count-verdict" aria-live="polite"></p>';
  $('quiz-text').innerHTML = html;
  $('quiz-text').querySelectorAll('button[data-owner]').forEach((b) => b.addEventListener('click', () => answer({ owner: Number(b.dataset.owner) })));
  $('quiz-check').addEventListener('click', () => answer({ messages: Number($('quiz-count').value) }));
}
function answer(a) {
  if (!question) return null;
  const q = question;
  let right;
  let why;
  let line;
  if (a.owner !== undefined) {
    right = a.owner === q.owner;
    why = wave ? waveOwnerAnswer(q) : 'cell (' + q.cell[0] + ', ' + q.cell[1] + ') belongs to p' + q.owner + ': ' + ownerWhy(q.cell[0], q.cell[1]);
    line = $('quiz-owner-verdict');
  } else {
    right = a.messages === q.messages;
    why = q.unit + ' sends ' + plural(q.messages, bands ? 'message of carries' : wave ? 'halo message' : 'boundary message', bands ? 'messages of carries' : wave ? 'halo messages' : 'boundary messages') +
      (bands ? ': one per band that has a band after it and a batch at this stage' : wave ? ': one each way between every two neighbouring ranks that both still take part, empty or not'
        : ': one per cell whose neighbour below, or else to the right, another rank owns');
    line = $('quiz-count-verdict');
  }
  if (line) {
    line.innerHTML = (right ? '<b>Right.</b> ' : '<b>Not quite.</b> ') + why + '. Step on to see it.';
    line.className = right ? 'right' : 'wrong';
  }
  return { right, why: line ? line.textContent : why, question: a.owner !== undefined ? 'owner' : 'count' };
}
function setQuiz(on) {
  quizOn = on;
  document.body.classList.toggle('quizzing', on);
  $('quiz-button').setAttribute('aria-pressed', String(on));
  ask(current);
  placeQuiz();
  // Shown or hidden above the grid, the questions change what the grid may take.
  fit();
}
// The questions go where they can be read: in the side panel, or, with the panel folded (the
// projector's mode), under the strip above the grid, which scales to what is left.
function placeQuiz() {
  const quiz = $('quiz');
  const folded = document.body.classList.contains('folded');
  const home = document.querySelector(folded ? 'header' : 'aside');
  if (quiz.parentNode === home) return;
  if (folded) home.appendChild(quiz);
  else home.insertBefore(quiz, $('now'));
}
