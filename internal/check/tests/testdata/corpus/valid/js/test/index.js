'use strict';

var test = require('tape');
var qsLike = require('../src/qs');

test('parse()', function (t) {
    t.test('parses a simple string', function (st) {
        st.deepEqual(qsLike.parse('0=foo'), { 0: 'foo' });
        st.end();
    });

    t.equal(qsLike.parse('a=b').a, 'b', 'reads a value');
    t.end();
});

test('stringify() with a plan', function (t) {
    t.plan(1);
    t.equal(qsLike.stringify({ a: 'b' }), 'a=b');
});
