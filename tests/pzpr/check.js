// Checks kakurod's puzz.link URLs and solutions with pzprjs itself (the engine of
// puzz.link, `npm install pzpr`): for each line of standard input, a JSON object
// {"url": PLAY_URL, "solution": [[digit or null, ...], ...]} as kakurod's result document
// gives them, it opens the URL, re-encodes the board, fills in the solution and runs
// pzprjs's own answer check. Prints one JSON object per line:
// {"url": ..., "type": ..., "same_url": bool, "complete": bool, "text": ...}.
//
//   node tests/pzpr/check.js < answers.jsonl      (NODE_PATH names pzpr's node_modules)
'use strict';
const pzpr = require('pzpr');
const readline = require('readline');

const query = (url) => url.slice(url.indexOf('?') + 1);

function check(line) {
    const { url, solution } = JSON.parse(line);
    const puzzle = new pzpr.Puzzle();
    puzzle.open(url);
    // A Kakuro's board leaves out the grid's black first row and column.
    const offset = puzzle.pid === 'kakuro' ? 1 : 0;
    for (const cell of Array.from(puzzle.board.cell)) {
        if (cell.ques === 51) continue;
        const row = (cell.by - 1) / 2 + offset;
        const col = (cell.bx - 1) / 2 + offset;
        const digit = solution[row] && solution[row][col];
        if (typeof digit === 'number') cell.setAnum(digit);
    }
    const verdict = puzzle.check(true);
    return {
        url,
        type: puzzle.pid,
        same_url: query(puzzle.getURL()) === query(url),
        complete: verdict.complete === true,
        text: String(verdict.text),
    };
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
    if (line.trim() === '') return;
    let result;
    try {
        result = check(line);
    } catch (error) {
        result = { url: null, error: String(error) };
    }
    process.stdout.write(JSON.stringify(result) + '\n');
});
