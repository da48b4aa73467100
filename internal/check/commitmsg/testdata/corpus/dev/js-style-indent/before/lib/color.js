'use strict';

function hexToRgb(hex) {
    const m = /^#?([\da-f]{2})([\da-f]{2})([\da-f]{2})$/i.exec(hex);
    if (!m) return null;
    return { r: parseInt(m[1], 16), g: parseInt(m[2], 16), b: parseInt(m[3], 16) };
}

function rgbToHex({ r, g, b }) {
    return '#' + [r, g, b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

module.exports = { hexToRgb, rgbToHex };
