// Jest's own order, and shards of even weight: `npm test` runs the browser files as two shards,
// each its own jest process with its own twin (test/support/run-projects.ts). Jest's default
// shards by a hash of the path, which can put the heaviest files together; on a clean clone
// there are no recorded durations, so a file's size stands in for its weight, and each file in
// turn, heaviest first, goes to the lighter shard.
const fs = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

class ShardSequencer extends Sequencer {
  shard(tests, { shardIndex, shardCount }) {
    const shards = Array.from({ length: shardCount }, () => ({ weight: 0, tests: [] }));
    const weighed = tests.map((test) => ({ test, weight: fs.statSync(test.path).size }));
    weighed.sort((a, b) => b.weight - a.weight || (a.test.path < b.test.path ? -1 : 1));
    for (const { test, weight } of weighed) {
      const lightest = shards.reduce((min, s) => (s.weight < min.weight ? s : min));
      lightest.weight += weight;
      lightest.tests.push(test);
    }
    return shards[shardIndex - 1].tests;
  }
}

module.exports = ShardSequencer;
