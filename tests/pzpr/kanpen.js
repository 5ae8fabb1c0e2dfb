// Checks kakurod's kanpen Kakuro files with pzprjs (`npm install pzpr`): for each line of
// standard input, a JSON object {"kanpen": FILE_TEXT, "url": PLAY_URL} of one Kakuro, it
// opens the file as pzprjs opens a kanpen (pencil box) file, compares the board's URL with
// kakurod's play_url, and saves the board as a kanpen file again; it also opens the URL
// and saves that board as a kanpen file. Prints one JSON object per line:
// {"same_url": bool, "url": ..., "from_kanpen": FILE_TEXT, "from_url": FILE_TEXT}.
//
//   node tests/pzpr/kanpen.js < kakuro.jsonl      (NODE_PATH names pzpr's node_modules)
'use strict';
const pzpr = require('pzpr');
const readline = require('readline');

const query = (url) => url.slice(url.indexOf('?') + 1);

function check(line) {
    const { kanpen, url } = JSON.parse(line);
    const fromFile = new pzpr.Puzzle();
    fromFile.open(kanpen, 'kakuro');
    const fromUrl = new pzpr.Puzzle();
    fromUrl.open(url);
    return {
        same_url: fromFile.pid === 'kakuro' && query(fromFile.getURL()) === query(url),
        url: fromFile.getURL(),
        from_kanpen: fromFile.getFileData(pzpr.parser.FILE_PBOX),
        from_url: fromUrl.getFileData(pzpr.parser.FILE_PBOX),
    };
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
    if (line.trim() === '') return;
    let result;
    try {
        result = check(line);
    } catch (error) {
        result = { error: String(error) };
    }
    process.stdout.write(JSON.stringify(result) + '\n');
});
