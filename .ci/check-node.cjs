// Runs before `npm start`, `npm test` and `npm run bench`: on a Node older than `engines.node`
// (package.json, the one place the supported lines are written), fail at once with one line that
// says which Node is needed and how to get it, instead of a cryptic error from a dependency.
// CommonJS and no syntax newer than Node 12, so that it runs on whatever `node` is first on PATH.
'use strict';
const { engines } = require('../package.json');
const wanted = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(engines.node);
if (!wanted) throw new Error(`.ci/check-node.cjs: cannot read engines.node ${engines.node}`);
const have = process.versions.node.split('.').map(Number);
const need = wanted.slice(1).map(Number);
const older = have[0] !== need[0] ? have[0] < need[0] : have[1] !== need[1] ? have[1] < need[1] : have[2] < need[2];
if (older) {
  const script = process.env.npm_lifecycle_event ? process.env.npm_lifecycle_event.replace(/^pre/, '') : 'test';
  const command = script === 'test' || script === 'start' ? `npm ${script}` : `npm run ${script}`;
  console.error(
    `Headway needs Node ${engines.node} (22, 24 or 26; this is ${process.version}): run PATH="$(dirname "$(npx -y node@22 -p process.execPath)"):$PATH" ${command}`,
  );
  process.exit(1);
}
