// Checks kakurod's f-puzzles URLs with lz-string itself (`npm install lz-string`, the
// library f-puzzles and SudokuPad compress their puzzles with). Two modes, one JSON line
// in and one out per puzzle:
//
//   node tests/fpuzzles/check.js decompress < urls.txt
//       each line a URL kakurod wrote; prints the f-puzzles JSON inside it, or
//       {"error": ...} when it does not decompress.
//   node tests/fpuzzles/check.js compress < puzzles.jsonl
//       each line {"size": N, "givens": [[digit or 0, ...], ...], "cages": [[sum, [[row,
//       col], ...]], ...] or null} (rows and columns from 0); builds the f-puzzles JSON
//       itself and prints LZString.compressToBase64 of it.
//
// NODE_PATH names the node_modules folder that holds lz-string.
'use strict';
const LZString = require('lz-string');
const readline = require('readline');

function decompress(line) {
    const url = line.trim();
    const data = url.slice(url.indexOf('load=') + 'load='.length);
    const json = LZString.decompressFromBase64(decodeURIComponent(data));
    if (!json) return { error: 'does not decompress' };
    return JSON.parse(json);
}

function compress(line) {
    const { size, givens, cages } = JSON.parse(line);
    const grid = givens.map((row) => row.map((v) => (v > 0 ? { value: v, given: true } : {})));
    const puzzle = { size, title: 'from node', author: 'lz-string check', ruleset: '', grid };
    if (cages) {
        puzzle.killercage = cages.map(([sum, cells]) => ({
            cells: cells.map(([r, c]) => `R${r + 1}C${c + 1}`),
            value: String(sum),
        }));
    }
    return LZString.compressToBase64(JSON.stringify(puzzle));
}

const mode = process.argv[2];
const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
    if (line.trim() === '') return;
    const out = mode === 'decompress' ? decompress(line) : compress(line);
    process.stdout.write(JSON.stringify(out) + '\n');
});
