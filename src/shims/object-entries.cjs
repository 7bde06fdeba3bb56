// node-polyglot's `object.entries` polyfill, answered by the browser's own Object.entries (every
// browser the console supports has it). The polyfill and its helpers weighed ~7 KB on the login page.
module.exports = Object.entries;
