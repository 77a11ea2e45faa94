/** `npm start`: the loopback demo of both halves. */
console.log('demo not yet built: it lands with the demo issue (see README).');
